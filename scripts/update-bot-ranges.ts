// Refreshes the operators' published crawler ranges in libs/ports/bot-verification/src/ranges (docs/bots.md):
//   npm run bots:update-ranges                 downloads every file of RANGE_SOURCES from its official URL
//   npm run bots:update-ranges -- --from <dir>  takes the same files downloaded elsewhere (named as in RANGE_SOURCES)
// Our machines reach only the npm registry, so there the second form is the way: download the URLs that
// `npm run bots:update-ranges -- --list` prints on a machine that reaches them, copy them here, run with --from.
// Every file is checked (the published format, every prefix valid CIDR) before anything is written.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { RANGE_SOURCES, rangesOf, type PublishedRangeFile, type RangeSource } from '@bpc/bot-verification';

const RANGES = path.resolve(__dirname, '../libs/ports/bot-verification/src/ranges');

function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
}

async function download(source: RangeSource): Promise<string> {
  const response = await fetch(source.url, { signal: AbortSignal.timeout(30_000) });
  if (!response.ok) throw new Error(`${source.url} answered ${response.status}`);
  return response.text();
}

function checked(source: RangeSource, text: string): PublishedRangeFile {
  const file = JSON.parse(text) as PublishedRangeFile;
  if (!Array.isArray(file.prefixes) || file.prefixes.length === 0) throw new Error(`${source.file}: no prefixes`);
  rangesOf([{ operator: source.operator, file }]);
  return file;
}

async function main(): Promise<void> {
  if (process.argv.includes('--list')) {
    for (const source of RANGE_SOURCES) console.log(`${source.url} -> ${source.file}`);
    return;
  }
  const from = option('from');
  const files = await Promise.all(
    RANGE_SOURCES.map(async (source) => {
      const text = from === undefined ? await download(source) : readFileSync(path.join(from, source.file), 'utf8');
      return { source, text, file: checked(source, text) };
    }),
  );
  mkdirSync(RANGES, { recursive: true });
  const downloaded = new Date().toISOString().slice(0, 10);
  for (const { source, text } of files) writeFileSync(path.join(RANGES, source.file), text);
  const sources = files.map(({ source, file }) => ({ file: source.file, operator: source.operator, crawlers: source.crawlers, url: source.url, downloaded, ...(file.creationTime === undefined ? {} : { creationTime: file.creationTime }) }));
  writeFileSync(path.join(RANGES, 'sources.json'), `${JSON.stringify({ files: sources }, null, 2)}\n`);
  console.log(`${files.length} range files (${files.reduce((n, { file }) => n + file.prefixes.length, 0)} prefixes) written to ${path.relative(process.cwd(), RANGES)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

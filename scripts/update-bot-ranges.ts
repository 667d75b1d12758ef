// Refreshes the operators' published crawler ranges in libs/ports/bot-verification/src/ranges (docs/bots.md):
//   npm run bots:update-ranges                 downloads every file of RANGE_SOURCES from its official URL
//   npm run bots:update-ranges -- --list       prints those URLs and the file name each is saved as
//   npm run bots:update-ranges -- --from <dir> takes files downloaded elsewhere: either the official files, named as --list
//                                              says, or a range set in the shipped layout (a sources.json and its files,
//                                              such as another checkout's ranges directory), taken with its sources as they are
// Our machines reach only the npm registry, so there the last form is the way.
// Every file is checked (the published format, every prefix valid CIDR) and the set as a whole (rangeSetProblems:
// no operator's real crawlers may be proven false for want of a file) before anything is written.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { RANGE_SOURCES, rangeSetAge, rangeSetProblems, rangesOf, readRangeSet, SHIPPED_RANGES_DIR as RANGES, type PublishedRangeFile, type RangeFileSource, type RangeSource } from '@bpc/bot-verification';

interface TakenFile {
  readonly source: RangeFileSource;
  readonly text: string;
  readonly file: PublishedRangeFile;
}

function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
}

async function download(source: RangeSource): Promise<string> {
  const response = await fetch(source.url, { signal: AbortSignal.timeout(30_000) });
  if (!response.ok) throw new Error(`${source.url} answered ${response.status}`);
  return response.text();
}

function checked(name: string, operator: string, text: string): PublishedRangeFile {
  const file = JSON.parse(text) as PublishedRangeFile;
  if (!Array.isArray(file.prefixes) || file.prefixes.length === 0) throw new Error(`${name}: no prefixes`);
  rangesOf([{ operator, file }]);
  return file;
}

/** An official file as downloaded (by us, or elsewhere and copied): its one URL, the date it was taken, its creationTime. */
function official(source: RangeSource, text: string, downloaded: string): TakenFile {
  const file = checked(source.file, source.operator, text);
  const entry: RangeFileSource = { file: source.file, operator: source.operator, crawlers: source.crawlers, urls: [source.url], downloaded, creationTime: file.creationTime ?? 'unknown' };
  return { source: entry, text, file };
}

async function takeFrom(from: string, today: string): Promise<TakenFile[]> {
  if (!existsSync(path.join(from, 'sources.json'))) {
    // The official layout: the files --list names; one of an operator with reverse DNS may be missing (rangeSetProblems decides).
    return RANGE_SOURCES.filter((source) => existsSync(path.join(from, source.file))).map((source) => official(source, readFileSync(path.join(from, source.file), 'utf8'), today));
  }
  const set = await readRangeSet(from);
  if (set.sample) throw new Error(`${from} is a SAMPLE set (documentation addresses): it must never be taken as the operators' ranges`);
  return set.sources.map((source) => {
    const text = readFileSync(path.join(from, source.file), 'utf8');
    return { source, text, file: checked(source.file, source.operator, text) };
  });
}

async function main(): Promise<void> {
  if (process.argv.includes('--list')) {
    for (const source of RANGE_SOURCES) console.log(`${source.url} -> ${source.file}`);
    return;
  }
  const from = option('from');
  const today = new Date().toISOString().slice(0, 10);
  const taken = from === undefined ? await Promise.all(RANGE_SOURCES.map(async (source) => official(source, await download(source), today))) : await takeFrom(path.resolve(from), today);
  const sources = taken.map(({ source }) => source);
  const problems = rangeSetProblems(sources, { sample: false });
  if (problems.length > 0) throw new Error(`nothing written: ${problems.join('; ')}`);

  // Read everything before writing: --from may name this very directory.
  mkdirSync(RANGES, { recursive: true });
  for (const name of readdirSync(RANGES)) if (name.endsWith('.json')) rmSync(path.join(RANGES, name));
  for (const { source, text } of taken) writeFileSync(path.join(RANGES, source.file), text);
  writeFileSync(path.join(RANGES, 'sources.json'), `${JSON.stringify({ files: sources }, null, 2)}\n`);
  const { asOf, reverseDnsOnly } = rangeSetAge(sources, Date.now());
  console.log(`${taken.length} range files (${taken.reduce((n, { file }) => n + file.prefixes.length, 0)} prefixes, as of ${asOf ?? 'an unknown date'}) written to ${path.relative(process.cwd(), RANGES)}`);
  for (const url of reverseDnsOnly) console.log(`not in the set (its crawlers are checked by reverse DNS only): ${url}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

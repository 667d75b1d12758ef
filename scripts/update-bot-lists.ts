// Refreshes the vendored bot lists of libs/core/bots/src/lists and their sources.json (docs/bots.md):
//   npm run bots:update -- [--crawler-user-agents <version>] [--ai-robots <clone of ai.robots.txt | robots.json file | URL>]
// crawler-user-agents comes from the npm registry (`npm pack`, the latest version unless one is named). ai.robots.txt is
// not on npm: give a clone of its repository (its commit is recorded), a robots.json file, or its raw URL where the
// machine reaches it. Each list is checked (shape, patterns compile, the catalog compiles) before anything is written.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { compileBotCatalog } from '@bpc/bots';

const DATA = path.resolve(__dirname, '../libs/core/bots/src/lists');
const AI_ROBOTS_REPOSITORY = 'https://github.com/ai-robots-txt/ai.robots.txt';
const today = new Date().toISOString().slice(0, 10);

interface Source {
  readonly [field: string]: string;
}

function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
}

function crawlerUserAgents(version: string): { json: string; source: Source } {
  const dir = mkdtempSync(path.join(tmpdir(), 'crawler-user-agents-'));
  try {
    const [packed] = JSON.parse(execFileSync('npm', ['pack', `crawler-user-agents@${version}`, '--json', '--pack-destination', dir], { encoding: 'utf8' })) as { filename: string; version: string }[];
    execFileSync('tar', ['-xzf', path.join(dir, packed!.filename), '-C', dir, 'package/crawler-user-agents.json']);
    const published = (JSON.parse(execFileSync('npm', ['view', `crawler-user-agents@${packed!.version}`, 'time', '--json'], { encoding: 'utf8' })) as Record<string, string>)[packed!.version];
    const json = readFileSync(path.join(dir, 'package', 'crawler-user-agents.json'), 'utf8');
    return { json, source: { project: 'crawler-user-agents (npm package)', file: 'crawler-user-agents.json', version: packed!.version, published: (published ?? '').slice(0, 10), license: 'MIT', vendored: today } };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function aiRobots(from: string): Promise<{ json: string; source: Source }> {
  const base = { project: `ai.robots.txt (${AI_ROBOTS_REPOSITORY})`, file: 'robots.json' };
  if (/^https?:\/\//.test(from)) {
    const response = await fetch(from);
    if (!response.ok) throw new Error(`${from} answered ${response.status}`);
    return { json: await response.text(), source: { ...base, url: from, license: 'MIT', vendored: today } };
  }
  if (existsSync(from) && statSync(from).isDirectory()) {
    const git = (...args: string[]) => execFileSync('git', ['-C', from, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
    const commit = git('rev-parse', 'HEAD').trim();
    return { json: git('show', `${commit}:robots.json`), source: { ...base, commit, committed: git('log', '-1', '--format=%cs', commit).trim(), license: 'MIT', vendored: today } };
  }
  return { json: readFileSync(from, 'utf8'), source: { ...base, file: path.basename(from), license: 'MIT', vendored: today } };
}

function checked(aiRobotsJson: string, crawlerJson: string): void {
  const ai = JSON.parse(aiRobotsJson) as Record<string, { operator?: unknown; function?: unknown }>;
  for (const [name, entry] of Object.entries(ai)) if (typeof entry.operator !== 'string' || typeof entry.function !== 'string') throw new Error(`ai.robots.txt entry ${name} lacks operator or function`);
  const crawlers = JSON.parse(crawlerJson) as { pattern?: unknown; instances?: unknown }[];
  for (const entry of crawlers) {
    if (typeof entry.pattern !== 'string' || !Array.isArray(entry.instances)) throw new Error(`crawler-user-agents entry ${JSON.stringify(entry).slice(0, 80)} lacks pattern or instances`);
    new RegExp(entry.pattern);
  }
  const catalog = compileBotCatalog({ aiRobots: ai as never, crawlerUserAgents: crawlers as never });
  console.log(`catalog compiles: ${catalog.bots.length} bots`);
}

async function main(): Promise<void> {
  const sources = JSON.parse(readFileSync(path.join(DATA, 'sources.json'), 'utf8')) as Record<string, Source>;
  const crawlers = crawlerUserAgents(option('crawler-user-agents') ?? 'latest');
  const aiFrom = option('ai-robots');
  const ai = aiFrom === undefined ? { json: readFileSync(path.join(DATA, 'ai-robots.json'), 'utf8'), source: sources['ai-robots.json']! } : await aiRobots(aiFrom);
  if (aiFrom === undefined) console.log('ai.robots.txt kept as it is (give --ai-robots to refresh it)');
  checked(ai.json, crawlers.json);
  writeFileSync(path.join(DATA, 'crawler-user-agents.json'), crawlers.json);
  writeFileSync(path.join(DATA, 'ai-robots.json'), ai.json);
  writeFileSync(path.join(DATA, 'sources.json'), `${JSON.stringify({ 'ai-robots.json': ai.source, 'crawler-user-agents.json': crawlers.source }, null, 2)}\n`);
  console.log(`crawler-user-agents ${crawlers.source.version}, ai.robots.txt ${ai.source.commit ?? ai.source.url ?? ai.source.file}: written to ${path.relative(process.cwd(), DATA)}; run the bots specs and read the diff`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

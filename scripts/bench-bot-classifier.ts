// Micro-benchmark of the bot classifier (issue 44: ≤ 3 µs per call on a cache hit): `npm run bots:bench`.
// Prints µs per call for cache hits, for misses on real User-Agents, and for hostile 1 KB+ headers (never cached).
import { botCatalog, createBotClassifier } from '@bpc/bots';
import crawlerUserAgents from '../libs/core/bots/src/lists/crawler-user-agents.json';

const samples = crawlerUserAgents.flatMap((entry) => entry.instances);
const browsers = ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1'];
const hostile = ['ContextualBot', 'Current ', 'Spider ', 'a', 'Mozilla/5.0 (compatible; '].map((unit) => unit.repeat(Math.ceil((100 * 1024) / unit.length)));

function microsPerCall(label: string, calls: number, run: (i: number) => void): void {
  for (let i = 0; i < Math.min(calls, 10_000); i++) run(i);
  const started = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) run(i);
  const micros = Number(process.hrtime.bigint() - started) / 1e3 / calls;
  console.log(`${label.padEnd(40)} ${micros.toFixed(3)} µs per call`);
}

const compileStarted = process.hrtime.bigint();
const { identify } = botCatalog();
console.log(`${'compile the catalog (once)'.padEnd(40)} ${(Number(process.hrtime.bigint() - compileStarted) / 1e6).toFixed(1)} ms`);
const classify = createBotClassifier();
const all = [...samples, ...browsers];
for (const userAgent of all) classify(userAgent);
microsPerCall(`hit (${all.length} User-Agents cached)`, 2_000_000, (i) => classify(all[i % all.length]!));
microsPerCall('miss, real User-Agents (uncached identify)', 200_000, (i) => identify(all[i % all.length]!));
microsPerCall('miss, browsers (uncached identify)', 200_000, (i) => identify(browsers[i % browsers.length]!));
microsPerCall('hostile 100 KB headers (never cached)', 20_000, (i) => classify(hostile[i % hostile.length]!));

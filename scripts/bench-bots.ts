// Micro-benchmark of what the serving path will call per bot request (issue 44: classification and verification
// lookup ≤ 3 µs together): `npm run bots:bench`. Prints µs per call: classifier hits, misses on real User-Agents,
// hostile headers (never cached); verifier answers from published ranges (the SAMPLE set) and from its cache.
import path from 'node:path';
import { botCatalog, createBotClassifier } from '@bpc/bots';
import { BotVerifier, rangesOf, readRangeFiles, type DnsLookups } from '@bpc/bot-verification';
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

// Every lookup answers at once: the bench measures the verifier's own cost once an answer is cached, not DNS.
const answeringLookups: DnsLookups = {
  resolvePtr: async () => ['crawl.googlebot.com'],
  resolve4: async () => ['203.0.113.1'],
  resolve6: async () => [],
};

async function benchVerifier(): Promise<void> {
  const ranges = rangesOf(await readRangeFiles(path.resolve(__dirname, '../libs/ports/bot-verification/src/sample-ranges')));
  const verifier = new BotVerifier({ ranges, lookups: answeringLookups });
  verifier.verify('Google', '203.0.113.1');
  await verifier.idle();
  const addresses = Array.from({ length: 1000 }, (_, i) => `198.51.100.${i % 256}`);
  microsPerCall('verify: published ranges (1,000 addresses)', 1_000_000, (i) => verifier.verify('OpenAI', addresses[i % addresses.length]!));
  microsPerCall('verify: cached DNS answer', 1_000_000, () => verifier.verify('Google', '203.0.113.1'));
  microsPerCall('classify + verify (hit, cached)', 1_000_000, (i) => verifier.verify(classify(all[i % all.length]!).operator, '203.0.113.1'));
}

void benchVerifier();

// Micro-benchmark of what the serving path will call per bot request (issue 44: classification and verification
// lookup ≤ 3 µs together): `npm run bots:bench`. Prints µs per call: classifier hits, misses on real User-Agents,
// hostile headers (never cached); verifier answers from published ranges (the SAMPLE set) and from its cache.
import path from 'node:path';
import { botCatalog, createBotClassifier } from '@bpc/bots';
import { BotVerifier, rangesOf, readRangeFiles, type DnsLookups } from '@bpc/bot-verification';
import { AddressPolicy } from '@bpc/egress';
import { mayCrawl, robotsFileOf, RobotsTxtKeeper } from '@bpc/robots-txt';
import { ClaimedBots } from '../libs/features/edge/src/claimed-bot/claimed-bots';
import { ClientAddresses } from '../libs/features/edge/src/client-address/client-address';
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

/**
 * What the edge's serving path pays per bot request for issue 44 §4 (target ≤ 3 µs), paired: A is what it
 * did before (classify the User-Agent), B what it does now (`ClaimedBots.of`: classify, find the client
 * address in X-Forwarded-For behind a trusted proxy, read the verifier's answer). Rounds alternate A and B
 * so the host's drift hits both; the row gives the median of the rounds' B − A in CPU µs per request.
 */
async function benchServingPath(): Promise<void> {
  const ranges = rangesOf(await readRangeFiles(path.resolve(__dirname, '../libs/ports/bot-verification/src/sample-ranges')));
  const verifier = new BotVerifier({ ranges, lookups: answeringLookups });
  const claimed = new ClaimedBots(verifier, new ClientAddresses(['10.0.0.0/8']));
  const classifyOnly = createBotClassifier();
  // Googlebots from 1,000 addresses of the (SAMPLE) Google IPv6 range and one checked by DNS, with a forged entry on the left; GPTBot from its ranges; a browser (no operator: no address work).
  const requests = Array.from({ length: 1_000 }, (_, i) => {
    if (i % 10 === 9) return { ua: browsers[0]!, xff: '203.0.113.5' };
    if (i % 10 === 8) return { ua: 'Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)', xff: `198.51.100.${i % 14}` };
    return { ua: samples.find((ua) => ua.includes('Googlebot/2.1'))!, xff: i % 2 === 0 ? `66.249.66.1, 2001:db8:4860::${i.toString(16)}` : '203.0.113.1' };
  });
  for (const r of requests) claimed.of(r.ua, '10.1.2.3', r.xff);
  await verifier.idle();
  const cpuMicros = (run: () => void): number => {
    const started = process.cpuUsage();
    run();
    const used = process.cpuUsage(started);
    return used.user + used.system;
  };
  const N = 500_000;
  let sink = 0;
  const a = () => cpuMicros(() => { for (let i = 0; i < N; i++) sink += classifyOnly(requests[i % 1_000]!.ua).name.length; });
  const b = () => cpuMicros(() => { for (let i = 0; i < N; i++) sink += claimed.of(requests[i % 1_000]!.ua, '10.1.2.3', requests[i % 1_000]!.xff).verified.length; });
  a();
  b();
  const added: number[] = [];
  const perA: number[] = [];
  for (let round = 0; round < 10; round++) {
    const [ta, tb] = round % 2 === 0 ? [a(), b()] : [b(), a()].reverse();
    perA.push(ta / N);
    added.push((tb - ta) / N);
  }
  const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;
  console.log(`${'serving path: classify only (A)'.padEnd(40)} ${median(perA).toFixed(3)} µs CPU per request`);
  console.log(`${'serving path: + address + verify (B − A)'.padEnd(40)} ${median(added).toFixed(3)} µs CPU per request (median of 10 paired rounds; range ${Math.min(...added).toFixed(3)} – ${Math.max(...added).toFixed(3)})`);
  // The worst case: every request from a proxy chain never seen before (the address memo misses; the verifier's answer is cached).
  const fresh = new ClaimedBots(verifier, new ClientAddresses(['10.0.0.0/8']));
  const googlebot = requests[0]!.ua;
  microsPerCall('claimed bot, unseen X-Forwarded-For', 200_000, (i) => void fresh.of(googlebot, '10.1.2.3', `66.249.${i % 250}.${i % 199}, 2001:db8:4860::${(i % 1_000).toString(16)}`));

  // The robots.txt verdict each recorded request gets (robots-parser's isAllowed on a kept file; not part of the 3 µs target), and through the keeper's memo.
  const keeper = new RobotsTxtKeeper({ addresses: new AddressPolicy(), refreshMs: 3_600_000, now: () => 0 });
  (keeper as unknown as { files: Map<string, unknown> }).files.set('https://www.example.com', { file: robotsFileOf('https://www.example.com/robots.txt', { kind: 'answered', status: 200, body: Buffer.from('User-agent: *\nDisallow: /admin\n') }), version: 1, refreshAt: Number.POSITIVE_INFINITY });
  const site = { hostnames: ['www.example.com'] };
  microsPerCall('robots.txt verdict (keeper, 1,000 URLs)', 1_000_000, (i) => void keeper.verdict(site, 'https://www.example.com', i % 2 === 0 ? 'Googlebot' : 'GPTBot', `https://www.example.com/products/${i % 500}?page=2`));
  const file = robotsFileOf('https://www.example.com/robots.txt', { kind: 'answered', status: 200, body: Buffer.from('User-agent: GPTBot\nDisallow: /private\n\nUser-agent: *\nDisallow: /admin\nDisallow: /*?session=\nAllow: /admin/public\n') });
  microsPerCall('robots.txt verdict (mayCrawl)', 200_000, (i) => void mayCrawl(file, i % 2 === 0 ? 'Googlebot' : 'GPTBot', `https://www.example.com/products/${i % 500}?page=2`));
  await keeper.close();
  if (sink === 0) console.log('');
}

void benchVerifier().then(benchServingPath);

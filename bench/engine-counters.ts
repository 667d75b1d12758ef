import { execFile } from 'node:child_process';
import { createServer, request, Agent, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the shared engines have done so far, read from the engines
 * themselves (no hook in the apps): a snapshot before and after a phase,
 * subtracted, is what the phase cost them.
 */
export interface EngineCounters {
  /** Kafka: messages and bytes (key + value) per topic. */
  readonly kafka: Record<string, { messages: number; bytes: number }>;
  /** Redis: calls per command (INFO commandstats), the snapshot's own INFO left out. */
  readonly redis: Record<string, number>;
  readonly redisMemory: number;
  readonly redisKeys: number;
  /** ClickHouse: rows per table. */
  readonly clickhouse: Record<string, number>;
  /** Object store: requests per method and bytes each way (the counting proxy). */
  readonly s3: Record<string, number>;
}

function run(command: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => execFile(command, args, { maxBuffer: 1024 * 1024 * 1024 }, (error, stdout, stderr) => (error ? reject(new Error(`${command}: ${error.message} ${stderr}`)) : resolve(stdout))));
}

/** Every message of every topic under `namespace.` read once (kcat), counted with its key and value bytes. */
async function kafkaTotals(brokers: string, namespace: string): Promise<EngineCounters['kafka']> {
  const metadata = JSON.parse(await run('kcat', ['-b', brokers, '-L', '-J'])) as { topics: { topic: string }[] };
  const totals: EngineCounters['kafka'] = {};
  for (const { topic } of metadata.topics.filter((t) => t.topic.startsWith(`${namespace}.`))) {
    const lines = (await run('kcat', ['-b', brokers, '-C', '-t', topic, '-o', 'beginning', '-e', '-q', '-f', '%S %K\n'])).split('\n').filter(Boolean);
    totals[topic.slice(namespace.length + 1)] = { messages: lines.length, bytes: lines.reduce((sum, line) => sum + line.split(' ').reduce((s, n) => s + Math.max(0, Number(n)), 0), 0) };
  }
  return totals;
}

async function redisTotals(url: string): Promise<Pick<EngineCounters, 'redis' | 'redisMemory' | 'redisKeys'>> {
  const stats = await run('redis-cli', ['-u', url, 'INFO', 'commandstats']);
  const redis: Record<string, number> = {};
  for (const match of stats.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) if (match[1] !== 'info' && match[1] !== 'dbsize') redis[match[1]] = Number(match[2]);
  const memory = await run('redis-cli', ['-u', url, 'INFO', 'memory']);
  const keys = await run('redis-cli', ['-u', url, 'DBSIZE']);
  return { redis, redisMemory: Number(/^used_memory:(\d+)/m.exec(memory)?.[1] ?? 0), redisKeys: Number(keys.trim()) };
}

async function clickhouseTotals(url: string, database: string): Promise<Record<string, number>> {
  const answer = await fetch(`${url}/`, { method: 'POST', body: `SELECT name, total_rows FROM system.tables WHERE database = '${database}' AND total_rows IS NOT NULL FORMAT TabSeparated` });
  if (!answer.ok) throw new Error(`ClickHouse: ${answer.status} ${await answer.text()}`);
  const totals: Record<string, number> = {};
  for (const line of (await answer.text()).split('\n').filter(Boolean)) {
    const [name, rows] = line.split('\t');
    totals[name] = Number(rows);
  }
  return totals;
}

export interface Engines {
  readonly kafkaBrokers: string;
  readonly namespace: string;
  readonly redisUrl: string;
  readonly clickhouse: { readonly url: string; readonly database: string };
  readonly s3: CountingProxy;
}

export async function snapshot(engines: Engines): Promise<EngineCounters> {
  const [kafka, redis, clickhouse] = await Promise.all([kafkaTotals(engines.kafkaBrokers, engines.namespace), redisTotals(engines.redisUrl), clickhouseTotals(engines.clickhouse.url, engines.clickhouse.database)]);
  return { kafka, ...redis, clickhouse, s3: { ...engines.s3.counts } };
}

/** `after - before`, key by key (keys of either). */
function minus(after: Record<string, number>, before: Record<string, number>): Record<string, number> {
  return Object.fromEntries([...new Set([...Object.keys(after), ...Object.keys(before)])].map((key) => [key, (after[key] ?? 0) - (before[key] ?? 0)]));
}

/** What happened between two snapshots, flattened: `kafka.<topic>.messages`, `redis.<command>`, `clickhouse.<table>`, `s3.<METHOD>`… */
export function delta(after: EngineCounters, before: EngineCounters): Record<string, number> {
  const flat = (c: EngineCounters): Record<string, number> => ({
    ...Object.fromEntries(Object.entries(c.kafka).flatMap(([topic, t]) => [[`kafka.${topic}.messages`, t.messages], [`kafka.${topic}.bytes`, t.bytes]])),
    ...Object.fromEntries(Object.entries(c.redis).map(([command, calls]) => [`redis.${command}`, calls])),
    'redis.used_memory': c.redisMemory,
    'redis.keys': c.redisKeys,
    ...Object.fromEntries(Object.entries(c.clickhouse).map(([table, rows]) => [`clickhouse.${table}`, rows])),
    ...Object.fromEntries(Object.entries(c.s3).map(([key, n]) => [`s3.${key}`, n])),
  });
  return minus(flat(after), flat(before));
}

/** Sums of a flattened delta: Kafka messages and bytes, Redis commands, ClickHouse rows, object store requests. */
export function totals(d: Record<string, number>): Record<string, number> {
  const sum = (pick: (key: string) => boolean) => Object.entries(d).reduce((s, [k, v]) => (pick(k) ? s + v : s), 0);
  return {
    kafkaMessages: sum((k) => k.startsWith('kafka.') && k.endsWith('.messages')),
    kafkaBytes: sum((k) => k.startsWith('kafka.') && k.endsWith('.bytes')),
    redisCommands: sum((k) => k.startsWith('redis.') && k !== 'redis.used_memory' && k !== 'redis.keys'),
    clickhouseRows: sum((k) => k.startsWith('clickhouse.')),
    s3Get: d['s3.GET'] ?? 0,
    s3Put: d['s3.PUT'] ?? 0,
    s3Head: d['s3.HEAD'] ?? 0,
    s3Post: d['s3.POST'] ?? 0,
    s3Delete: d['s3.DELETE'] ?? 0,
    s3BytesUp: d['s3.bytesUp'] ?? 0,
    s3BytesDown: d['s3.bytesDown'] ?? 0,
  };
}

/** An HTTP proxy in front of the S3 server counting requests per method and body bytes each way. */
export interface CountingProxy {
  readonly endpoint: string;
  readonly counts: Record<string, number>;
  close(): Promise<void>;
}

export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const { hostname, port } = new URL(target);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const counts: Record<string, number> = {};
  const add = (key: string, n: number) => (counts[key] = (counts[key] ?? 0) + n);
  const server: Server = createServer((req, res) => {
    add(req.method ?? 'OTHER', 1);
    const upstream = request({ hostname, port, method: req.method, path: req.url, headers: req.headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.on('data', (chunk: Buffer) => add('bytesDown', chunk.length));
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.on('data', (chunk: Buffer) => add('bytesUp', chunk.length));
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}

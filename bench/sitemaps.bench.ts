import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { type AppConfig, validateConfig } from '@bpc/config';
import { RunningApps, startApps } from '@bpc/composition';
import { createLogger } from '@bpc/platform';
import { projectorApp } from '../apps/projector/src/projector.app';
import { publicApiApp } from '../apps/public-api/src/public-api.app';
import type { BenchRow, BenchSuite } from './bench-row';
import { BENCH_INTERNAL_KEY, issueBenchToken } from './bench-service';
import { upperMedian } from './stats';

const FILES = 5;
const URLS_PER_FILE = 10_000;
const ROUNDS = 5;
const TARGET_MS = 3_000;
const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';

/** Round `round`'s index and its five gzip files: new URLs each round, so every round queues 50,000 new entries per dimension. */
function sitemapFiles(round: number): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const children: string[] = [];
  for (let f = 0; f < FILES; f++) {
    const entries: string[] = [];
    for (let i = 0; i < URLS_PER_FILE; i++) entries.push(`<url><loc>https://www.example.com/r${round}/section-${f}/page-${i}?ref=sitemap</loc><lastmod>2026-11-${String((i % 27) + 1).padStart(2, '0')}</lastmod><changefreq>daily</changefreq></url>`);
    files.set(`/r${round}/sitemap-${f}.xml.gz`, gzipSync(`<?xml version="1.0" encoding="UTF-8"?>\n<urlset ${NS}>${entries.join('\n')}</urlset>`));
    children.push(`<sitemap><loc>https://www.example.com/r${round}/sitemap-${f}.xml.gz</loc><lastmod>2026-11-27</lastmod></sitemap>`);
  }
  files.set(`/r${round}/sitemap_index.xml`, Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex ${NS}>${children.join('')}</sitemapindex>`));
  return files;
}

function benchConfig(dir: string, origin: string): AppConfig {
  return validateConfig(
    {
      data_dir: dir,
      internal_auth_key: BENCH_INTERNAL_KEY,
      logging: { level: 'warn' },
      listen: { host: '127.0.0.1', public_api: 0, daemon: 0, edge: 0, projector: 0 },
      hosts: [{ host_id: 1, hostnames: ['www.example.com'], origin, dimensions: [{ id: 1, name: 'desktop' }, { id: 2, name: 'mobile' }] }],
      websites: [{ id: 'bench', host_id: 1, account_id: 'bench' }],
      rate_limit: { enabled: false },
      scheduler: { enabled: false },
    },
    'bench',
  );
}

/**
 * Sitemap recache (issue 32): `POST …/cache/recache-sitemap` of a
 * 50,000-URL sitemap index (5 gzip files of 10,000 URLs) served by a local
 * origin, timed from the request to the answer — index and files fetched,
 * gunzipped, parsed, filtered, and 100,000 entries (2 dimensions) recorded
 * and projected in chunks. Standalone adapters (file log, memory queue).
 */
export const sitemapsBench: BenchSuite = {
  name: 'sitemaps',
  async run(): Promise<BenchRow[]> {
    const dir = mkdtempSync(path.join(tmpdir(), 'bpc-bench-sitemaps-'));
    const files = new Map<string, Buffer>();
    for (let round = -1; round < ROUNDS; round++) for (const [name, body] of sitemapFiles(round)) files.set(name, body);
    const origin: Server = createServer((req, res) => {
      const body = files.get(req.url ?? '');
      if (!body) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': req.url!.endsWith('.gz') ? 'application/gzip' : 'application/xml', 'content-length': String(body.length) }).end(body);
    });
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    let running: RunningApps | undefined;
    try {
      running = await startApps([projectorApp, publicApiApp], benchConfig(dir, `http://127.0.0.1:${(origin.address() as AddressInfo).port}`), createLogger('warn', 'bench-sitemaps'));
      const api = running.urls['public-api']!;
      const headers = { authorization: `Bearer ${await issueBenchToken(api, 'manager')}`, 'content-type': 'application/json' };
      const recache = async (round: number) => {
        const started = performance.now();
        const response = await fetch(`${api}/api/websites/bench/cache/recache-sitemap`, { method: 'POST', headers, body: JSON.stringify({ sitemapUrl: `https://www.example.com/r${round}/sitemap_index.xml` }) });
        const answer = (await response.json()) as { urlsAccepted?: number; entriesEnqueued?: number };
        const ms = performance.now() - started;
        if (response.status !== 200 || answer.urlsAccepted !== FILES * URLS_PER_FILE || answer.entriesEnqueued !== 2 * FILES * URLS_PER_FILE) throw new Error(`recache-sitemap: ${response.status} ${JSON.stringify(answer)}`);
        return ms;
      };
      // One unmeasured round: code paths compiled, connections open.
      await recache(-1);
      const rounds: number[] = [];
      for (let round = 0; round < ROUNDS; round++) rounds.push(await recache(round));
      const p50 = upperMedian(rounds);
      return [
        {
          name: `sitemap recache: index of ${FILES} gzip files, ${(FILES * URLS_PER_FILE).toLocaleString('en')} URLs x 2 dimensions, fetched + parsed + enqueued (p50 of ${ROUNDS}; max ${Math.round(Math.max(...rounds))} ms)`,
          value: Math.round(p50),
          unit: 'ms',
          target: `<= ${TARGET_MS} ms`,
          pass: p50 <= TARGET_MS,
        },
      ];
    } finally {
      await running?.close();
      origin.closeAllConnections();
      await new Promise((resolve) => origin.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

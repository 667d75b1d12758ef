import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { HOSTILE_VALUES, jsonOf, pick, RAW_GARBAGE, seededRandom, TEST_INTERNAL_KEY, testConfig } from '@bpc/testing';
import { daemonApp } from '../../apps/daemon/src/daemon.app';
import { projectorApp } from '../../apps/projector/src/projector.app';

/** Valid bodies per endpoint; the fuzzer breaks each in exactly one way, so none may succeed. */
const VALID: Record<string, Record<string, unknown>> = {
  '/internal/cache/recache': { host_id: 1, urls: ['https://www.example.com/a'], priority: 'high' },
  '/internal/cache/queue/purge': { host_id: 1, priorities: ['high'] },
  '/internal/cache/recache/pause': { host_id: 1 },
  '/internal/cache/recache/resume': { host_id: 1 },
  '/internal/cache/invalidate': { host_id: 1, urls: ['https://www.example.com/a'] },
};
const REQUIRED: Record<string, string[]> = {
  '/internal/cache/recache': ['host_id', 'urls', 'priority'],
  '/internal/cache/queue/purge': ['host_id'],
  '/internal/cache/recache/pause': ['host_id'],
  '/internal/cache/recache/resume': ['host_id'],
  '/internal/cache/invalidate': ['host_id', 'urls'],
};
/** Hostile values that some fields would accept; never substituted into those fields. */
const ACCEPTED_BY: Record<string, (value: unknown) => boolean> = {
  dimension_ids: (v) => Array.isArray(v) && v.length === 0,
  priorities: (v) => Array.isArray(v) && v.length === 0,
  mode: () => false,
};

function brokenBody(random: () => number, path: string): { body: string; contentType: string } {
  const valid = VALID[path];
  const roll = random();
  if (roll < 0.2) return { body: pick(random, RAW_GARBAGE), contentType: 'application/json' };
  if (roll < 0.3) return { body: JSON.stringify(valid), contentType: pick(random, ['text/plain', 'application/x-www-form-urlencoded']) };
  const body: Record<string, unknown> = { ...valid };
  if (roll < 0.5) {
    delete body[pick(random, REQUIRED[path])];
  } else {
    const fields = path === '/internal/cache/recache' ? [...Object.keys(valid), 'mode', 'dimension_ids'] : [...Object.keys(valid), ...(path.includes('invalidate') ? ['dimension_ids'] : [])];
    const field = pick(random, fields);
    let value = pick(random, HOSTILE_VALUES);
    while (ACCEPTED_BY[field]?.(value)) value = pick(random, HOSTILE_VALUES);
    body[field] = value;
  }
  return { body: JSON.stringify(body), contentType: 'application/json' };
}

describe('daemon API under thousands of malformed requests', () => {
  let running: RunningApps;
  let base: string;

  beforeAll(async () => {
    running = await startApps([projectorApp, daemonApp], testConfig('standalone', { scheduler: { enabled: false } }), createLogger('silent', 'fuzz'));
    base = running.urls.daemon!;
  });
  afterAll(() => running?.close());

  const snapshot = async () => {
    const body = await jsonOf(await fetch(`${base}/status`, { headers: { 'x-internal-auth': TEST_INTERNAL_KEY } }));
    return body.data.queues;
  };

  it('answers only 400, 401 or 403 in the error envelope, and changes nothing', async () => {
    const before = await snapshot();
    const random = seededRandom(20261121);
    const statuses = new Map<number, number>();
    const paths = [...Object.keys(VALID), '/internal/scheduler/pause', '/internal/scheduler/resume'];
    for (let i = 0; i < 3000; i += 1) {
      const path = pick(random, paths);
      const authed = random() > 0.1;
      const { body, contentType } = path in VALID ? brokenBody(random, path) : { body: pick(random, RAW_GARBAGE), contentType: 'application/json' };
      const headers: Record<string, string> = { 'content-type': contentType };
      if (authed) headers['x-internal-auth'] = TEST_INTERNAL_KEY;
      else if (random() > 0.5) headers['x-internal-auth'] = pick(random, ['', 'wrong', TEST_INTERNAL_KEY.toUpperCase(), `${TEST_INTERNAL_KEY} `]);
      const response = await fetch(`${base}${path}`, { method: 'POST', headers, body });
      const answer = await jsonOf(response);
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      if (![400, 401, 403].includes(response.status) || answer.status !== 'error' || typeof answer.message !== 'string') {
        throw new Error(`case ${i}: POST ${path} ${JSON.stringify(body).slice(0, 300)} -> ${response.status} ${JSON.stringify(answer)}`);
      }
    }
    expect([...statuses.keys()].sort()).toEqual([400, 401, 403]);
    expect(await snapshot()).toEqual(before);
  }, 120_000);
});

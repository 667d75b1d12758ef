import { AppConfig, validateConfig } from '@bpc/config';

/** The internal auth key of the benches' services. */
export const BENCH_INTERNAL_KEY = 'bench-internal-key';

/** One website, `bench` (account `bench`), on one host with one dimension, rate limit off, data in `dir`. */
export function oneWebsiteBenchConfig(dir: string): AppConfig {
  return validateConfig(
    {
      data_dir: dir,
      internal_auth_key: BENCH_INTERNAL_KEY,
      logging: { level: 'warn' },
      listen: { host: '127.0.0.1', public_api: 0, daemon: 0, edge: 0, projector: 0 },
      hosts: [{ host_id: 1, hostnames: ['www.example.com'], dimensions: [{ id: 1, name: 'desktop' }] }],
      websites: [{ id: 'bench', host_id: 1, account_id: 'bench' }],
      rate_limit: { enabled: false },
    },
    'bench',
  );
}

/** An API token for user `bench` with `role` on website `bench`, issued through the public API's internal admin route. */
export async function issueBenchToken(api: string, role: 'readonly' | 'manager'): Promise<string> {
  const issued = await fetch(`${api}/internal/admin/tokens`, { method: 'POST', headers: { 'x-internal-auth': BENCH_INTERNAL_KEY, 'content-type': 'application/json' }, body: JSON.stringify({ user: 'bench', website: 'bench', role }) });
  return ((await issued.json()) as { token: string }).token;
}

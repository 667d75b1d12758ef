import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError } from './config-error';
import { loadConfig, validateConfig } from './load-config';

const minimal = {
  internal_auth_key: 'k',
  hosts: [{ host_id: 1, hostnames: ['a.example'], dimensions: [{ id: 1, name: 'desktop' }] }],
};

function issuesOf(raw: Record<string, unknown>): string[] {
  try {
    validateConfig(raw, 'test');
  } catch (error) {
    if (error instanceof ConfigError) return error.issues.map((i) => `${i.key}: ${i.reason}`);
    throw error;
  }
  return [];
}

describe('configuration', () => {
  it('loads the committed demo config with the documented defaults', () => {
    const config = loadConfig({ file: path.join(__dirname, '../../../../deploy/config/demo.yaml'), env: {} });
    expect(config.recache.max_concurrent).toBe(5);
    expect(config.recache.timeout_per_url).toBe(60);
    expect(config.internal_queue.max_retries).toBe(3);
    expect(config.scheduler_control_api).toBe(false);
    expect(config.adapters).toEqual({ event_log: 'file', queue_store: 'memory', explorer_store: 'chdb', object_store: 'files' });
    expect(config.websites).toHaveLength(1);
    expect(config.hosts[0].dimensions.map((d) => d.name)).toEqual(['desktop', 'mobile']);
  });

  it('fills defaults for omitted sections', () => {
    const config = validateConfig(minimal, 'test');
    expect(config.recache.max_concurrent).toBe(5);
    expect(config.internal_queue.max_retries).toBe(3);
    expect(config.hosts[0].dimensions[0].action).toBe('render');
    expect(config.hosts[0].cache_ttl).toBe(86_400);
  });

  it('keeps only the SHA-256 of the internal auth key', () => {
    const config = validateConfig(minimal, 'test') as unknown as Record<string, unknown>;
    expect(config.internal_auth_key).toBeUndefined();
    expect(config.internal_auth_key_sha256).toBe(createHash('sha256').update('k').digest('hex'));
  });

  it('serves the demo site only at its host\'s http://127.0.0.1:<port> origin, off the apps\' ports', () => {
    const withDemoSite = (origin?: string, hostId = 1) => ({ ...minimal, hosts: [{ ...minimal.hosts[0], ...(origin ? { origin } : {}) }], demo_site: { host_id: hostId } });
    expect(issuesOf(withDemoSite('http://127.0.0.1:3004'))).toEqual([]);
    expect(issuesOf(withDemoSite('http://127.0.0.1:3004', 2))).toEqual(['demo_site.host_id: no host with host_id 2']);
    for (const origin of [undefined, 'https://127.0.0.1:3004', 'http://10.0.0.5:3004', 'http://localhost:3004', 'http://127.0.0.1']) {
      expect(issuesOf(withDemoSite(origin))).toEqual(['demo_site.host_id: host 1 needs an origin of the form http://127.0.0.1:<port> for the demo site to listen on']);
    }
    expect(issuesOf(withDemoSite('http://127.0.0.1:3002'))).toEqual(["demo_site.host_id: port 3002 of host 1's origin is an app's port"]);
  });

  it('applies BPC__ environment overrides, parsing JSON values', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'bpc-config-'));
    const file = path.join(dir, 'c.json');
    writeFileSync(file, JSON.stringify(minimal));
    const config = loadConfig({ file, env: { BPC__RECACHE__MAX_CONCURRENT: '9', BPC__SCHEDULER_CONTROL_API: 'true', BPC__DATA_DIR: '/tmp/x' } });
    expect(config.recache.max_concurrent).toBe(9);
    expect(config.scheduler_control_api).toBe(true);
    expect(config.data_dir).toBe('/tmp/x');
  });

  it('validates websites[].sitemaps at load: an http(s) URL on the website\'s host (or its origin), an interval of 5 minutes or more, listed once', () => {
    const withSitemaps = (sitemaps: unknown[], origin?: string) => ({
      ...minimal,
      hosts: [{ ...minimal.hosts[0], ...(origin ? { origin } : {}) }],
      websites: [{ id: 'w', host_id: 1, account_id: 'acme', sitemaps }],
    });
    expect(validateConfig(withSitemaps([{ url: 'https://a.example/sitemap.xml', every_minutes: 60 }]), 'test').websites[0].sitemaps).toEqual([{ url: 'https://a.example/sitemap.xml', every_minutes: 60 }]);
    expect(issuesOf(withSitemaps([{ url: 'http://127.0.0.1:4000/sitemap.xml', every_minutes: 60 }], 'http://127.0.0.1:4000'))).toEqual([]);
    expect(issuesOf(withSitemaps([{ url: 'https://b.example/sitemap.xml', every_minutes: 60 }]))).toEqual([
      "websites[0].sitemaps[0].url: not on the website's hostnames (a.example) or its host's origin",
    ]);
    expect(issuesOf(withSitemaps([{ url: 'ftp://a.example/s.xml', every_minutes: 1 }]))).toEqual([
      'websites[0].sitemaps[0].url: must be an absolute http(s) URL',
      'websites[0].sitemaps[0].every_minutes: must not be less than 5',
    ]);
    const twice = { url: 'https://a.example/s.xml', every_minutes: 60 };
    expect(issuesOf(withSitemaps([twice, twice]))).toEqual(['websites[0].sitemaps: sitemap https://a.example/s.xml is listed twice']);
    expect(issuesOf(withSitemaps([{ url: 'https://a.example/s.xml', every_minutes: 60, lastmod_after: 'x' }]))).toEqual(['websites[0].sitemaps[0].lastmod_after: unknown key']);
  });

  it('takes websites[].seo issue thresholds with their defaults, and refuses bad ones naming the key', () => {
    const withSeo = (seo: unknown) => ({ ...minimal, websites: [{ id: 'w', host_id: 1, account_id: 'acme', seo }] });
    expect(validateConfig(withSeo({ title_max_length: 70 }), 'test').websites[0].seo).toEqual({ title_max_length: 70, thin_content_words: 200, images_without_alt: 1 });
    expect(issuesOf(withSeo({ title_max_length: 0, thin_content_words: 'many' }))).toEqual([
      'websites[0].seo.title_max_length: must not be less than 1',
      'websites[0].seo.thin_content_words: must not be greater than 1000000; must not be less than 0; must be an integer number',
    ]);
  });

  it('refuses unknown keys, naming them', () => {
    expect(issuesOf({ ...minimal, recache: { max_concurent: 3 } })).toContain('recache.max_concurent: unknown key');
    expect(issuesOf({ ...minimal, colour: 'blue' })).toContain('colour: unknown key');
  });

  it('takes a public base URL for download links without a trailing slash', () => {
    expect(issuesOf({ ...minimal, exports: { public_base_url: 'https://api.example.com' } })).toEqual([]);
    expect(issuesOf({ ...minimal, exports: { public_base_url: 'https://example.com/bpc' } })).toEqual([]);
    for (const bad of ['https://api.example.com/', 'api.example.com', 'ftp://x.example', 'https://a b.example']) {
      expect(issuesOf({ ...minimal, exports: { public_base_url: bad } })).toEqual(['exports.public_base_url: must be an http(s) URL without a trailing slash']);
    }
  });

  it('refuses invalid values with the key and the reason', () => {
    expect(issuesOf({ ...minimal, recache: { max_concurrent: 0 } })).toEqual(['recache.max_concurrent: must not be less than 1']);
    expect(issuesOf({ ...minimal, recache: { max_concurrent: 'five' } })[0]).toMatch(/^recache\.max_concurrent: .*must be an integer/);
    expect(issuesOf({ ...minimal, adapters: { event_log: 'sqlite' } })[0]).toMatch(/^adapters\.event_log: must be one of/);
    const dims = { ...minimal, hosts: [{ ...minimal.hosts[0], dimensions: [{ id: 1.5, name: 'desktop' }] }] };
    expect(issuesOf(dims)[0]).toMatch(/^hosts\[0\]\.dimensions\[0\]\.id: .*must be an integer/);
  });

  it('admits Data Explorer statements with documented defaults and refuses limits that could not run a query', () => {
    expect(validateConfig(minimal, 'test').explorer).toEqual({ query_timeout_ms: 30_000, max_concurrent_statements: 3, account_max_statements: 16 });
    expect(issuesOf({ ...minimal, explorer: { max_concurrent_statements: 0 } })).toEqual(['explorer.max_concurrent_statements: must not be less than 1']);
    expect(issuesOf({ ...minimal, explorer: { account_max_statements: 1 } })).toEqual(['explorer.account_max_statements: must not be less than 2']);
    expect(issuesOf({ ...minimal, explorer: { account_max_statements: 'many' } })[0]).toMatch(/^explorer\.account_max_statements: .*must be an integer/);
  });

  it('takes CIDR ranges renders may not reach, IPv4 or IPv6, and names a bad one', () => {
    expect(validateConfig(minimal, 'test').render_service.egress_denied_ranges).toEqual([]);
    expect(issuesOf({ ...minimal, render_service: { egress_denied_ranges: ['203.0.113.0/24', '2001:db8::/32'] } })).toEqual([]);
    for (const bad of [['203.0.113.7'], ['10.0.0.0/33'], ['not a range'], [42]]) {
      expect(issuesOf({ ...minimal, render_service: { egress_denied_ranges: bad } })).toEqual(['render_service.egress_denied_ranges: each range must be a CIDR range such as 203.0.113.0/24 or 2001:db8::/32']);
    }
  });

  it("takes a website's settings for AI agents with documented defaults, and names a bad one", () => {
    const website = (over: Record<string, unknown>) => ({ ...minimal, websites: [{ id: 'w', host_id: 1, account_id: 'a', ...over }] });
    expect(validateConfig(website({}), 'test').websites[0]).toMatchObject({ llms_txt: false, markdown_for_agents: [] });
    expect(validateConfig(website({}), 'test').edge).toMatchObject({ markdown_cache_mb: 32, body_cache_mb: 64, llms_txt_refresh_s: 60 });
    const good = { name: 'Example', summary: 'Widgets.', llms_txt: true, markdown_for_agents: ['ChatGPT-User', 'Claude-User'], content_signal: 'search=yes, ai-input=yes, ai-train=no' };
    expect(issuesOf(website(good))).toEqual([]);
    expect(issuesOf(website({ content_signal: 'search=yes, ai-sell=no' }))).toEqual([
      'websites[0].content_signal: unknown signal "ai-sell" (known: search, ai-input, ai-train) (contentsignals.org syntax, e.g. "search=yes, ai-input=yes, ai-train=no")',
    ]);
    expect(issuesOf(website({ content_signal: 'search=yes\r\nSet-Cookie: x=1' }))[0]).toMatch(/^websites\[0\]\.content_signal: .*not signal=yes or signal=no/);
    expect(issuesOf(website({ content_signal: 3 }))[0]).toMatch(/^websites\[0\]\.content_signal: must be a string/);
    expect(issuesOf(website({ markdown_for_agents: ['ok', 'bad\ntoken'] }))).toEqual(['websites[0].markdown_for_agents: each token must be 1-64 letters, digits, . _ / - or spaces']);
    expect(issuesOf(website({ name: 'two\nlines' }))).toEqual(['websites[0].name: must be 1-200 characters on one line']);
  });

  it('takes the edge trusted proxies, bot verification and robots.txt settings and the spoofed bot policy, naming a bad one', () => {
    const config = validateConfig({ ...minimal, websites: [{ id: 'w', host_id: 1, account_id: 'a' }] }, 'test');
    expect(config.edge.trusted_proxies).toEqual([]);
    expect(config.edge.bot_verification).toEqual({ dns_timeout_ms: 1_000 });
    expect(config.edge.robots_txt).toEqual({ enabled: true, refresh_minutes: 60 });
    expect(config.websites[0].spoofed_bots).toBe('serve_cached_only');
    expect(issuesOf({ ...minimal, edge: { trusted_proxies: ['10.0.0.0/8', '::1/128'], bot_verification: { ranges_dir: './ranges', dns_servers: ['127.0.0.1:5353'] } } })).toEqual([]);
    for (const bad of [['10.0.0.1'], ['10.0.0.0/8, 192.168.0.0/16'], [''], [7]]) {
      expect(issuesOf({ ...minimal, edge: { trusted_proxies: bad } })).toEqual(['edge.trusted_proxies: each range must be a CIDR range such as 203.0.113.0/24 or 2001:db8::/32']);
    }
    expect(issuesOf({ ...minimal, edge: { bot_verification: { dns_servers: ['a b'] } } })).toEqual(['edge.bot_verification.dns_servers: each server must be host or host:port']);
    expect(issuesOf({ ...minimal, edge: { robots_txt: { refresh_minutes: 0 } } })).toEqual(['edge.robots_txt.refresh_minutes: must not be less than 1']);
    expect(issuesOf({ ...minimal, websites: [{ id: 'w', host_id: 1, account_id: 'a', spoofed_bots: 'block' }] })[0]).toMatch(/^websites\[0\]\.spoofed_bots: /);
  });

  it("takes a host's render settings with documented defaults, and names a bad one", () => {
    expect(validateConfig(minimal, 'test').hosts[0].render).toEqual({ quiet_ms: 300, long_request_ms: 4000, prerender_ready: true });
    const host = (render: Record<string, unknown>) => ({ ...minimal, hosts: [{ ...minimal.hosts[0], render }] });
    expect(issuesOf(host({ quiet_ms: 0, long_request_ms: 100, prerender_ready: false }))).toEqual([]);
    expect(issuesOf(host({ quiet_ms: -1 }))).toEqual(['hosts[0].render.quiet_ms: must not be less than 0']);
    expect(issuesOf(host({ long_request_ms: 'soon' }))).toEqual(expect.arrayContaining([expect.stringMatching(/^hosts\[0\]\.render\.long_request_ms: /)]));
  });

  it("takes a host's last-good rules with documented defaults, and names a bad one", () => {
    expect(validateConfig(minimal, 'test').hosts[0].last_good).toMatchObject({ enabled: true, min_size_ratio: 0.3, soft_404_size_floor_bytes: 2048 });
    const host = (last_good: Record<string, unknown>) => ({ ...minimal, hosts: [{ ...minimal.hosts[0], last_good }] });
    expect(issuesOf(host({ enabled: false, min_size_ratio: 0, soft_404_size_floor_bytes: 0, soft_404_title_pattern: 'introuvable' }))).toEqual([]);
    expect(issuesOf(host({ min_size_ratio: 1.5 }))).toEqual(['hosts[0].last_good.min_size_ratio: must not be greater than 1']);
    expect(issuesOf(host({ soft_404_title_pattern: '(' }))[0]).toMatch(/^hosts\[0\]\.last_good\.soft_404_title_pattern: not a valid regular expression/);
  });

  it('takes the s3 section of the S3 object store with documented defaults, from the file or the environment, and names a bad value', () => {
    const onS3 = { ...minimal, adapters: { object_store: 's3' } };
    expect(validateConfig({ ...onS3, s3: { bucket: 'bpc-objects' } }, 'test').s3).toEqual({
      bucket: 'bpc-objects',
      prefix: '',
      region: 'us-east-1',
      force_path_style: false,
      request_timeout_ms: 10_000,
      max_attempts: 3,
    });
    expect(issuesOf(onS3)).toEqual(['s3: required when adapters.object_store is s3 (at least s3.bucket)']);
    expect(issuesOf({ ...minimal, adapters: { object_store: 'minio' } })).toEqual(['adapters.object_store: must be one of the following values: files, s3']);
    const dir = mkdtempSync(path.join(tmpdir(), 'bpc-config-'));
    writeFileSync(path.join(dir, 'bpc.json'), JSON.stringify(minimal));
    const fromEnv = loadConfig({
      file: path.join(dir, 'bpc.json'),
      env: { BPC__ADAPTERS__OBJECT_STORE: 's3', BPC__S3__BUCKET: 'bpc', BPC__S3__PREFIX: 'prod/objects', BPC__S3__ENDPOINT: 'http://minio:9000', BPC__S3__FORCE_PATH_STYLE: 'true' },
    });
    expect(fromEnv.adapters.object_store).toBe('s3');
    expect(fromEnv.s3).toMatchObject({ bucket: 'bpc', prefix: 'prod/objects', endpoint: 'http://minio:9000', force_path_style: true });
    const s3 = (section: Record<string, unknown>) => issuesOf({ ...onS3, s3: { bucket: 'bpc', ...section } });
    for (const bucket of ['Bucket', 'my_bucket', 'ab', '10.0.0.1', 'a..b', '']) {
      expect(s3({ bucket })).toEqual(['s3.bucket: must follow the naming rules of S3 buckets: 3 to 63 lower-case letters, digits, dots and hyphens, a letter or digit at each end, no two dots in a row, not an IP address']);
    }
    for (const prefix of ['../x', '/abs', 'a//b', 'a/../b', 'a/', 'a b']) expect(s3({ prefix })[0]).toMatch(/^s3\.prefix: must be empty or \/-separated segments/);
    for (const endpoint of ['minio:9000', 'ftp://minio', 'http://minio:9000/path', '']) expect(s3({ endpoint })).toEqual(['s3.endpoint: must be an http(s) URL of a server, without a path']);
    expect(s3({ region: 'US East' })).toEqual(['s3.region: must be a code like us-east-1']);
    expect(s3({ request_timeout_ms: 10 })).toEqual(['s3.request_timeout_ms: must not be less than 100']);
    expect(s3({ access_key_id: 'AKIA…' })).toEqual(['s3.access_key_id: unknown key']);
  });

  it('refuses rules that span keys', () => {
    expect(issuesOf({ ...minimal, websites: [{ id: 'w', host_id: 7, account_id: 'a' }] })).toEqual(['websites[0].host_id: no host with host_id 7']);
    expect(issuesOf({ ...minimal, adapters: { queue_store: 'redis' } })).toEqual(['redis: required when adapters.queue_store is redis']);
    expect(issuesOf({ hosts: minimal.hosts })).toEqual(['internal_auth_key: required (or internal_auth_key_sha256)']);
    const badRegex = { ...minimal, hosts: [{ ...minimal.hosts[0], url_rules: [{ pattern: '(', action: 'ignore' }] }] };
    expect(issuesOf(badRegex)[0]).toMatch(/^hosts\[0\]\.url_rules\[0\]\.pattern: not a valid regular expression/);
    const twice = { ...minimal, hosts: [minimal.hosts[0], { ...minimal.hosts[0], hostnames: ['b.example'] }] };
    expect(issuesOf(twice)).toEqual(['hosts: host_id 1 is used twice']);
    const token = 'a'.repeat(64);
    const sharedToken = { ...minimal, websites: [{ id: 'w1', host_id: 1, account_id: 'a', prerender_token_sha256: token }, { id: 'w2', host_id: 1, account_id: 'a', prerender_token_sha256: token }] };
    expect(issuesOf(sharedToken)).toEqual(['websites: two websites have the same prerender_token_sha256 (each website needs its own token)']);
    const onKafka = { ...minimal, adapters: { event_log: 'kafka' }, kafka: { brokers: ['k:9092'] } };
    expect(issuesOf(onKafka)).toEqual(['exports.signing_key: required with event_log kafka (replicas sign and check download links with it): 32 or more random characters']);
    expect(issuesOf({ ...onKafka, exports: { signing_key: 'x'.repeat(32) } })).toEqual([]);
  });

  it('names the file when it cannot be read or parsed', () => {
    expect(() => loadConfig({ file: '/nonexistent/bpc.yaml', env: {} })).toThrow(/\(file\): cannot read/);
    const dir = mkdtempSync(path.join(tmpdir(), 'bpc-config-'));
    writeFileSync(path.join(dir, 'bad.yaml'), 'a: [1, 2');
    expect(() => loadConfig({ file: path.join(dir, 'bad.yaml'), env: {} })).toThrow(/not valid YAML or JSON/);
  });
});

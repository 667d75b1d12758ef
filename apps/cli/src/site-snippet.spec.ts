import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { validateConfig } from '@bpc/config';
import { sha256Hex } from '@bpc/domain';
import { runCli } from './run-cli';
import { existingSitesOf, newPrerenderToken, SiteConflictError, siteSnippet } from './site-snippet';

const DEMO_CONFIG = path.resolve(__dirname, '../../../deploy/config/demo.yaml');
const demoRaw = () => parseYaml(readFileSync(DEMO_CONFIG, 'utf8')) as { hosts: unknown[]; websites: unknown[] };
const DEMO_SITES = existingSitesOf(demoRaw());

/** The config file after an operator pasted the printed items under its `hosts:` and `websites:` keys. */
function pasted(hostYaml: string, websiteYaml: string) {
  const raw = demoRaw();
  raw.hosts.push(...(parseYaml(hostYaml) as unknown[]));
  raw.websites.push(...(parseYaml(websiteYaml) as unknown[]));
  return raw;
}

describe('site add (configuration items for one more site)', () => {
  it('gives items that, pasted into the demo configuration, load, with the token kept only as its SHA-256', () => {
    const snippet = siteSnippet({ hostnames: ['www.shop.test', 'shop.test'] }, DEMO_SITES, 'the-token');

    const config = validateConfig(pasted(snippet.hostYaml, snippet.websiteYaml), 'pasted');

    expect(config.hosts[1]).toMatchObject({ host_id: 2, hostnames: ['www.shop.test', 'shop.test'], origin: 'https://www.shop.test', dimensions: [{ id: 1, name: 'default', match: { fallback: true } }] });
    expect(config.websites[1]).toMatchObject({ id: 'www.shop.test', host_id: 2, account_id: 'www.shop.test', platform_module: true, prerender_token_sha256: sha256Hex('the-token'), sitemaps: [] });
    expect(config.websites[1].alerts).toBeUndefined();
    expect(`${snippet.hostYaml}\n${snippet.websiteYaml}`).not.toContain('the-token');
  });

  it('takes the website, account, origin and host id it is given', () => {
    const snippet = siteSnippet({ hostnames: ['Shop.Test'], website: 'shop', account: 'acme', origin: 'http://10.0.0.5:8080', hostId: 7 }, DEMO_SITES, 't');

    expect(parseYaml(snippet.hostYaml)).toEqual([expect.objectContaining({ host_id: 7, hostnames: ['shop.test'], origin: 'http://10.0.0.5:8080' })]);
    expect(parseYaml(snippet.websiteYaml)).toEqual([expect.objectContaining({ id: 'shop', host_id: 7, account_id: 'acme' })]);
  });

  it.each([
    [{ hostnames: ['example.com'] }, 'hostname example.com is already configured'],
    [{ hostnames: ['new.test'], website: 'demo' }, 'website demo is already configured'],
    [{ hostnames: ['new.test'], hostId: 1 }, 'host_id 1 is already configured'],
    [{ hostnames: ['https://new.test/'] }, 'is not a hostname'],
    [{ hostnames: [] }, 'needs at least one hostname'],
  ])('refuses %j, which the configuration would refuse at startup', (request, message) => {
    expect(() => siteSnippet(request, DEMO_SITES, 't')).toThrow(SiteConflictError);
    expect(() => siteSnippet(request, DEMO_SITES, 't')).toThrow(message);
  });

  it('reads the sites of the configuration file as written', () => {
    expect(DEMO_SITES).toEqual({ hostIds: [1], hostnames: ['www.example.com', 'example.com'], websiteIds: ['demo'] });
    expect(existingSitesOf(undefined)).toEqual({ hostIds: [], hostnames: [], websiteIds: [] });
  });

  it('makes a fresh 32-byte token each time', () => {
    const [a, b] = [newPrerenderToken(), newPrerenderToken()];
    expect(a).toMatch(/^bpc_pre_[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
  });

  it('prints the token once and the items for the file BPC_CONFIG names, without a running service', async () => {
    const out: string[] = [];
    const err: string[] = [];

    const code = await runCli(['site', 'add', '--host', 'www.shop.test'], { env: { BPC_CONFIG: DEMO_CONFIG }, out: (l) => out.push(l), err: (l) => err.push(l) });

    expect({ code, err }).toEqual({ code: 0, err: [] });
    const text = out.join('\n');
    const token = /^ {2}(bpc_pre_\S+)$/m.exec(text)?.[1] as string;
    expect(text.split(token)).toHaveLength(2);
    expect(text).toContain(`prerender_token_sha256: ${sha256Hex(token)}`);
    const [, hostYaml, websiteYaml] = text.split(/^Under (?:hosts|websites):$/m);
    expect(validateConfig(pasted(hostYaml, websiteYaml), 'pasted').websites.map((w) => w.id)).toEqual(['demo', 'www.shop.test']);
  });

  it('says so when it cannot read the configuration file to check the new site against', async () => {
    const err: string[] = [];

    const code = await runCli(['site', 'add', '--host', 'www.shop.test'], { env: { BPC_CONFIG: '/nonexistent/my-sites.yaml' }, out: () => undefined, err: (l) => err.push(l) });

    expect(code).toBe(0);
    expect(err.join('\n')).toContain('cannot read /nonexistent/my-sites.yaml');
  });

  it('exits 1 naming the clash when the hostname is configured already', async () => {
    const err: string[] = [];

    const code = await runCli(['site', 'add', '--host', 'www.example.com'], { env: { BPC_CONFIG: DEMO_CONFIG }, out: () => undefined, err: (l) => err.push(l) });

    expect(code).toBe(1);
    expect(err.join('\n')).toContain('hostname www.example.com is already configured');
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const LIBS = path.resolve(__dirname, '../..');
const IMPORT = /from '@bpc\/([a-z-]+)'/g;

/** The @bpc libraries that `lib`'s product code (specs aside) imports. */
function importsOf(lib: string): Set<string> {
  const found = new Set<string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts') && !/spec\.ts$/.test(entry.name)) {
        for (const [, name] of readFileSync(full, 'utf8').matchAll(IMPORT)) if (name !== lib) found.add(name);
      }
    }
  };
  walk(path.join(LIBS, lib, 'src'));
  return found;
}

const libs = readdirSync(LIBS, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);

describe('layering: domain, platform kernel, ports and adapters, composition root', () => {
  it('the domain imports no other library', () => {
    expect([...importsOf('domain')]).toEqual([]);
  });

  it('support (log sink, grown buffers, bounded memo, backoff and retries, worker calls) imports no other library', () => {
    expect([...importsOf('support')]).toEqual([]);
  });

  it('the platform kernel (logging, HTTP, health, metrics, lifecycle) is a leaf: config, domain and support only', () => {
    expect([...importsOf('platform')].filter((name) => !['config', 'domain', 'support'].includes(name))).toEqual([]);
  });

  it('egress (what a customer-controlled URL may reach) is a leaf: domain and support only', () => {
    expect([...importsOf('egress')].filter((name) => !['domain', 'support'].includes(name))).toEqual([]);
  });

  it('sitemap reads and alert webhooks connect under the egress rules without depending on the renderer', () => {
    expect(['sitemaps', 'alerts'].filter((lib) => importsOf(lib).has('renderer'))).toEqual([]);
  });

  it('only the apps compose: no library imports the composition root', () => {
    expect(libs.filter((lib) => lib !== 'composition' && importsOf(lib).has('composition'))).toEqual([]);
  });
});

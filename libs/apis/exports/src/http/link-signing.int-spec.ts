import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { testConfig } from '@bpc/testing';
import { LINK_KEY_FILE, linkSigningKey } from './link-signing';

describe('linkSigningKey', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'link-key-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('uses the configured key', async () => {
    const key = 'k'.repeat(40);
    expect(await linkSigningKey(testConfig('standalone', { data_dir: dir, exports: { signing_key: key } }))).toEqual(Buffer.from(key));
  });

  it('makes a random key once in standalone mode, owner-only, and reads it back (links survive a restart)', async () => {
    const config = testConfig('standalone', { data_dir: dir });
    const first = await linkSigningKey(config);
    expect(first).toHaveLength(32);
    expect(statSync(path.join(dir, LINK_KEY_FILE)).mode & 0o777).toBe(0o600);
    expect(await linkSigningKey(config)).toEqual(first);
    // Written beside it and linked into place: nothing else is left in the directory.
    expect(readdirSync(dir)).toEqual([LINK_KEY_FILE]);
    // Nothing in the configuration leads to it: another data directory gets another key.
    const other = mkdtempSync(path.join(tmpdir(), 'link-key-'));
    try {
      expect(await linkSigningKey(testConfig('standalone', { data_dir: other }))).not.toEqual(first);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
    expect(readFileSync(path.join(dir, LINK_KEY_FILE), 'utf8')).toBe(first.toString('base64url'));
  });

  it('refuses a key file that holds no key, naming it', async () => {
    writeFileSync(path.join(dir, LINK_KEY_FILE), 'short');
    await expect(linkSigningKey(testConfig('standalone', { data_dir: dir }))).rejects.toThrow(`${path.join(dir, LINK_KEY_FILE)} does not hold a link signing key`);
  });

  it('gives concurrent first starts one key', async () => {
    const config = testConfig('standalone', { data_dir: dir });
    const keys = await Promise.all(Array.from({ length: 8 }, () => linkSigningKey(config)));
    expect(new Set(keys.map((k) => k.toString('hex'))).size).toBe(1);
  });
});

import { checkDownload, isoWithOffset, signDownload } from './download-link';

const key = Buffer.from('k'.repeat(32));
const NOW = Date.parse('2026-11-21T12:00:00Z');
const expires = NOW / 1000 + 600;

describe('signed download links', () => {
  const sig = signDownload(key, 7, 'file-a', expires);

  it('accepts its own link until it expires, then says expired', () => {
    expect(checkDownload(key, 7, 'file-a', String(expires), sig, NOW)).toBe('ok');
    expect(checkDownload(key, 7, 'file-a', String(expires), sig, expires * 1000)).toBe('expired');
  });

  it('refuses another export, another file, another expiry, another key, and malformed parts', () => {
    expect(checkDownload(key, 8, 'file-a', String(expires), sig, NOW)).toBe('tampered');
    expect(checkDownload(key, 7, 'file-b', String(expires), sig, NOW)).toBe('tampered');
    expect(checkDownload(key, 7, 'file-a', String(expires + 1), sig, NOW)).toBe('tampered');
    expect(checkDownload(Buffer.from('x'.repeat(32)), 7, 'file-a', String(expires), sig, NOW)).toBe('tampered');
    expect(checkDownload(key, 7, 'file-a', undefined, sig, NOW)).toBe('tampered');
    expect(checkDownload(key, 7, 'file-a', String(expires), sig.slice(2), NOW)).toBe('tampered');
    expect(checkDownload(key, 7, 'file-a', '1e9', sig, NOW)).toBe('tampered');
  });

  it('writes expiresAt with an explicit offset', () => {
    expect(isoWithOffset(NOW)).toBe('2026-11-21T12:00:00.000+00:00');
  });
});

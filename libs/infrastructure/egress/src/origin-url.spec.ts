import { originUrl, publicLocation } from './origin-url';

describe('origin URLs', () => {
  describe('originUrl', () => {
    it('replaces scheme, host and port with the origin, keeping path and query', () => {
      const url = new URL('https://www.example.com/a/b?x=1&y=2');
      expect(originUrl(url, 'http://127.0.0.1:8080').toString()).toBe('http://127.0.0.1:8080/a/b?x=1&y=2');
      expect(originUrl(new URL('https://www.example.com:8443/p'), 'https://origin.internal').toString()).toBe('https://origin.internal/p');
      expect(originUrl(url, undefined).toString()).toBe(url.toString());
    });

    it('keeps a #! page state for the page script to read, and drops any other fragment', () => {
      expect(originUrl(new URL('https://www.example.com/app?x=1#!key=value'), 'http://127.0.0.1:8080').toString()).toBe('http://127.0.0.1:8080/app?x=1#!key=value');
      expect(originUrl(new URL('https://www.example.com/app#top'), undefined).toString()).toBe('https://www.example.com/app');
    });

    it('without an origin fetches https://<the page hostname> on its default port, whatever port or scheme the page URL names', () => {
      expect(originUrl(new URL('https://www.example.com:6379/p?q=1'), undefined).toString()).toBe('https://www.example.com/p?q=1');
      expect(originUrl(new URL('http://www.example.com/p'), undefined).toString()).toBe('https://www.example.com/p');
      expect(originUrl(new URL('https://[::1]:8443/p'), undefined).toString()).toBe('https://[::1]/p');
    });

    // Each of these page paths resolves, as a relative reference, to another host.
    it.each(['//127.0.0.1:18081/x', '/\\127.0.0.1:18081/x', '/%2F%2F127.0.0.1:18081/x', '/..//127.0.0.1:18081', '/a/../..//127.0.0.1:18081/x?y=1', '/?x=//127.0.0.1:18081/'])(
      'keeps the hostile path %j a path on the origin',
      (hostile) => {
        const publicUrl = new URL(`https://www.example.com${hostile}`);
        const fetched = originUrl(publicUrl, 'http://origin.internal:8080');
        expect(fetched.origin).toBe('http://origin.internal:8080');
        expect(`${fetched.pathname}${fetched.search}`).toBe(`${publicUrl.pathname}${publicUrl.search}`);
        // fetch and Chromium are handed the serialised URL: parsed again, it still names the origin.
        expect(new URL(fetched.href).origin).toBe('http://origin.internal:8080');
        expect(originUrl(publicUrl, undefined).origin).toBe('https://www.example.com');
      },
    );
  });

  describe('publicLocation', () => {
    const fetched = new URL('http://127.0.0.1:8080/old?q=1');
    const publicUrl = new URL('https://www.example.com/old?q=1');
    it('resolves relative locations and points the origin back to the public host', () => {
      expect(publicLocation('/new', fetched, publicUrl)).toBe('https://www.example.com/new');
      expect(publicLocation('http://127.0.0.1:8080/x', fetched, publicUrl)).toBe('https://www.example.com/x');
    });
    it('keeps an origin location whose path starts with // on the public host', () => {
      const hostile = new URL('http://127.0.0.1:8080//evil.test/old');
      expect(publicLocation('http://127.0.0.1:8080//evil.test/new?q=//x#//y', hostile, publicUrl)).toBe('https://www.example.com//evil.test/new?q=//x#//y');
      expect(publicLocation('/..//evil.test/', fetched, publicUrl)).toBe('https://www.example.com//evil.test/');
    });
    it('leaves other hosts alone', () => {
      expect(publicLocation('https://elsewhere.test/y', fetched, publicUrl)).toBe('https://elsewhere.test/y');
      expect(publicLocation('/same', publicUrl, publicUrl)).toBe('https://www.example.com/same');
    });
  });
});

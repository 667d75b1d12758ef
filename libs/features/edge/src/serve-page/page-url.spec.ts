import { pageUrlOf } from './page-url';

describe('pageUrlOf', () => {
  it('takes the absolute page URL after the first slash, query included, fragment dropped', () => {
    expect(pageUrlOf('/https://WWW.Example.com:443/pricing?x=1#top')?.href).toBe('https://www.example.com/pricing?x=1');
    expect(pageUrlOf('/http://www.example.com')?.href).toBe('http://www.example.com/');
  });

  it('reads _escaped_fragment_ as the #! page it stands for (the AJAX crawling scheme), however the URL was sent', () => {
    expect(pageUrlOf('/https://www.example.com/page?_escaped_fragment_=key=value')?.href).toBe('https://www.example.com/page#!key=value');
    expect(pageUrlOf('/https%3A%2F%2Fwww.example.com%2Fpage%3F_escaped_fragment_%3Dkey%3Dvalue')?.href).toBe('https://www.example.com/page#!key=value');
    expect(pageUrlOf('/https://www.example.com/page?_escaped_fragment_=')?.href).toBe('https://www.example.com/page');
  });

  it('forgives a proxy that merged the scheme slashes', () => {
    expect(pageUrlOf('/https:/www.example.com/p')?.href).toBe('https://www.example.com/p');
  });

  it("takes a page URL as nginx's rewrite of the common pre-rendering guides escapes it (? as %3F, % as %25)", () => {
    expect(pageUrlOf('/https://www.example.com/pricing%3Fplan=pro')?.href).toBe('https://www.example.com/pricing?plan=pro');
    expect(pageUrlOf('/https://www.example.com/caf%25C3%25A9%3Fq=a%2520b')?.href).toBe('https://www.example.com/caf%C3%A9?q=a%20b');
    expect(pageUrlOf('/https://www.example.com/page%3F_escaped_fragment_=key=value')?.href).toBe('https://www.example.com/page#!key=value');
    expect(pageUrlOf('/https://www.example.com/caf%C3%A9?q=%3F')?.href).toBe('https://www.example.com/caf%C3%A9?q=%3F');
    expect(pageUrlOf('/https://www.example.com/caf%25C3%25A9')?.href).toBe('https://www.example.com/caf%C3%A9');
    expect(pageUrlOf('/https://www.example.com/100%25-cotton')?.href).toBe('https://www.example.com/100%25-cotton');
  });

  it('takes a page URL percent-encoded as a whole, as some integrations send it', () => {
    expect(pageUrlOf('/https%3A%2F%2Fwww.example.com%2Fpricing%3Fplan%3Dpro')?.href).toBe('https://www.example.com/pricing?plan=pro');
    expect(pageUrlOf('/HTTP%3a%2f%2fwww.example.com%2F')?.href).toBe('http://www.example.com/');
    expect(pageUrlOf('/https%3A%2F%2Fwww.example.com%2F%E0%A4%A')).toBeUndefined();
  });

  it('refuses anything but an absolute http(s) URL', () => {
    for (const target of ['/', '/pricing', '/ftp://www.example.com/', '/https://', 'https://www.example.com/', '//www.example.com/p']) {
      expect(pageUrlOf(target)).toBeUndefined();
    }
  });
});

import { normalizeHttpUrl } from './normalize-url';

const normalized = (input: string): string | undefined => normalizeHttpUrl(input)?.href;

describe('normalizeHttpUrl', () => {
  it('lower-cases scheme and host, drops the default port and a plain fragment, keeps the query as given', () => {
    expect(normalized('HTTPS://WWW.Example.com:443/Pricing?b=2&a=%20x#top')).toBe('https://www.example.com/Pricing?b=2&a=%20x');
    expect(normalized('http://www.example.com')).toBe('http://www.example.com/');
  });

  it('refuses anything but an absolute http(s) URL', () => {
    for (const input of ['', '/p', 'ftp://www.example.com/', 'https://', 'x'.repeat(9000)]) expect(normalized(input)).toBeUndefined();
    expect(normalizeHttpUrl(42)).toBeUndefined();
  });

  describe('the AJAX crawling scheme (#! and _escaped_fragment_)', () => {
    it('keeps a #! fragment: it names a state of the page', () => {
      expect(normalized('https://www.example.com/page#!key=value')).toBe('https://www.example.com/page#!key=value');
      expect(normalized('https://www.example.com/page#!')).toBe('https://www.example.com/page');
    });

    it('reads _escaped_fragment_ as the #! URL it stands for, its value decoded, the other parameters kept as given', () => {
      expect(normalized('https://www.example.com/page?_escaped_fragment_=key=value')).toBe('https://www.example.com/page#!key=value');
      expect(normalized('https://www.example.com/page?a=%20x&_escaped_fragment_=key%3Dvalue%26b%3D2&c=3')).toBe('https://www.example.com/page?a=%20x&c=3#!key=value&b=2');
      expect(normalized('https://www.example.com/?&_escaped_fragment_=/products/42')).toBe('https://www.example.com/#!/products/42');
    });

    it('reads an empty _escaped_fragment_ as the page itself, without the parameter', () => {
      expect(normalized('https://www.example.com/page?_escaped_fragment_=')).toBe('https://www.example.com/page');
      expect(normalized('https://www.example.com/page?_escaped_fragment_')).toBe('https://www.example.com/page');
      expect(normalized('https://www.example.com/page?x=1&_escaped_fragment_=')).toBe('https://www.example.com/page?x=1');
    });

    it('gives the ugly URL and the #! URL the same key, and is stable when applied again', () => {
      const ugly = normalized('https://www.example.com/page?_escaped_fragment_=q=red%20shoes');
      expect(ugly).toBe(normalized('https://www.example.com/page#!q=red shoes'));
      expect(normalized(ugly!)).toBe(ugly);
    });
  });
});

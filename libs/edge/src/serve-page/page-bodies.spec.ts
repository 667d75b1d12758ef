import { titleOf } from './page-bodies';

describe('titleOf', () => {
  it('reads the title of an HTML page', () => {
    expect(titleOf(Buffer.from('<html><head><title>\n  Pricing &amp; plans </title></head></html>'), 'text/html; charset=utf-8')).toBe('Pricing & plans');
  });

  it('is empty without a title or for other content types', () => {
    expect(titleOf(Buffer.from('<html><body>x</body></html>'), 'text/html')).toBe('');
    expect(titleOf(Buffer.from('<title>x</title>'), 'application/json')).toBe('');
  });
});

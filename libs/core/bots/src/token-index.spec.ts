import { TokenIndex } from './token-index';

describe('TokenIndex', () => {
  const index = new TokenIndex([
    { token: 'googlebot-image', atWordStart: false, rank: 0, value: 'Googlebot-Image' },
    { token: 'googlebot', atWordStart: false, rank: 1, value: 'Googlebot' },
    { token: 'spider', atWordStart: true, rank: 2, value: 'Spider' },
    { token: 'y!', atWordStart: false, rank: 3, value: 'Y!' },
  ]);
  const best = (text: string) => index.best(text)?.value;

  it('answers the best-ranked token wherever it occurs, not the leftmost', () => {
    expect(best('x googlebot-image/1.0')).toBe('Googlebot-Image');
    expect(best('spider googlebot')).toBe('Googlebot');
  });

  it('finds a word-start token only where a word starts', () => {
    expect(best('baiduspider/2.0')).toBeUndefined();
    expect(best('(compatible; spider)')).toBe('Spider');
  });

  it('finds tokens shorter than its key', () => {
    expect(best('y!j-asr/0.1')).toBe('Y!');
  });

  it('answers nothing above the given rank', () => {
    expect(index.best('googlebot', 1)).toBeUndefined();
  });
});

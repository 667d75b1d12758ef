import { assertOffset, isAtOrBelow, offsetAfter } from './projection-offsets';

describe('projection offsets', () => {
  it('compares decimal strings by value, not by text', () => {
    expect(isAtOrBelow('9', '10')).toBe(true);
    expect(isAtOrBelow('10', '9')).toBe(false);
    expect(isAtOrBelow('10', '10')).toBe(true);
    expect(isAtOrBelow('11', '10')).toBe(false);
  });

  it('increments beyond the safe integer range exactly', () => {
    expect(offsetAfter('0')).toBe('1');
    expect(offsetAfter('9007199254740993')).toBe('9007199254740994');
  });

  it('accepts only canonical decimal offsets', () => {
    expect(() => assertOffset('42')).not.toThrow();
    expect(() => assertOffset('0')).not.toThrow();
    for (const bad of ['', '-1', '01', '1.5', 'abc', ' 1']) expect(() => assertOffset(bad)).toThrow(/invalid projection offset/);
  });
});

import { REGEX_MAX_LENGTH, regexPatternProblem, summedRepetitions } from './regex-pattern';

const COSTLY = '[\\x{0}-\\x{10FFFF}]{1000}';

describe('regex filter patterns', () => {
  it.each(['^/blog/', '/(a|c)$', '[a-z]+\\d{2,4}', '(?i)pricing', '(?P<slug>[^/]+)', '(?:x|y)*?', '\\pL+', '\\p{Greek}', '[[:alpha:]]', 'a{0,1000}', '\\Q(.*)\\E', '[]a]', '^$', COSTLY])(
    'given %j, when checked, then RE2 accepts it',
    (pattern) => {
      expect(regexPatternProblem(pattern)).toBeUndefined();
    },
  );

  it.each([
    ['\\y', 'invalid escape sequence: \\y'],
    ['[z-a]', 'invalid character class range: z-a'],
    ['\\p{Foo}', 'invalid character class range: \\p{Foo}'],
    ['(?=a)b', 'invalid perl operator: (?='],
    ['(?<!a)b', 'invalid perl operator: (?<!'],
    ['(a)\\1', 'invalid escape sequence: \\1'],
    ['(?>a)', 'invalid perl operator: (?>'],
    ['a++', 'bad repetition operator: ++'],
    ['(a', 'missing ): (a'],
    ['abc\\', 'trailing \\'],
  ])('given %j, when checked, then it is refused with RE2\'s own reason', (pattern, reason) => {
    expect(regexPatternProblem(pattern)).toBe(`invalid regular expression (RE2 syntax): ${reason}`);
  });

  it('given counted repetitions summing past the budget, when checked, then it is refused before RE2 compiles it', () => {
    expect(regexPatternProblem(COSTLY.repeat(40))).toBe('the regular expression asks for 40000 repetitions in all ({n,m} counts, nested ones multiplied); at most 1000');
    expect(regexPatternProblem('a{1001}')).toMatch(/asks for 1001 repetitions/);
    expect(regexPatternProblem('a{600}b{401}')).toMatch(/asks for 1001 repetitions/);
    expect(regexPatternProblem('((a{1000}){1000}){1000}')).toMatch(/asks for 1000000000 repetitions/);
  });

  it('given a pattern longer than the limit, when checked, then it is refused on its length', () => {
    expect(regexPatternProblem('a'.repeat(REGEX_MAX_LENGTH))).toBeUndefined();
    expect(regexPatternProblem('a'.repeat(REGEX_MAX_LENGTH + 1))).toBe('a regular expression takes at most 500 characters');
  });

  it.each([
    ['a{10}b{20}', 30],
    ['(a{10}){5}', 50],
    ['(ab){5}', 5],
    ['(a{2,}|b{3,7}){2}', 18],
    ['x{3}?', 3],
    ['[{9}]\\{9}\\x{10}\\p{Greek}', 0],
    ['[^]{}]{4}', 4],
    ['\\Q{9}\\E{2}', 2],
    ['a{', 0],
  ])('given %j, when its repetitions are summed, then they come to %d', (pattern, sum) => {
    expect(summedRepetitions(pattern)).toBe(sum);
  });
});

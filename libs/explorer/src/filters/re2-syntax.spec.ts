import { re2SyntaxError } from './re2-syntax';

describe('RE2 syntax check', () => {
  it.each(['^/blog/', '/(a|c)$', '[a-z]+\\d{2,4}', '(?i)pricing', '(?P<slug>[^/]+)', '(?:x|y)*?', '\\pL+', '[[:alpha:]]', 'a{0,1000}', '\\Q(.*)\\E', '[]a]', '^$'])('accepts %j', (pattern) => {
    expect(re2SyntaxError(pattern)).toBeUndefined();
  });

  it.each([
    ['(?=a)', 'look-around'],
    ['(?<!a)b', 'look-around'],
    ['(a)\\1', 'backreference'],
    ['(?<n>a)\\k<n>', 'backreference'],
    ['(?>a)', 'atomic'],
    ['a++', 'possessive'],
    ['a**', 'bad repetition'],
    ['*a', 'missing argument'],
    ['(a', 'missing \\)'],
    ['a)', 'unbalanced'],
    ['[a', 'unterminated'],
    ['a{1001}', 'repetition'],
    ['((a{100}){100}){100}', 'nested repetition'],
    ['(?(1)a|b)', 'conditionals'],
    ['(?R)', 'recursion'],
    ['abc\\', 'trailing backslash'],
  ])('refuses %j (%s)', (pattern, reason) => {
    expect(re2SyntaxError(pattern)).toMatch(new RegExp(reason, 'i'));
  });
});

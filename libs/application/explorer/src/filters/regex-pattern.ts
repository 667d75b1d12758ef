import RE2 from 're2';
import { BoundedMemo } from '@bpc/support';

/** Longest `regex` / `not_regex` pattern, in characters (other text filters take up to 1000). */
export const REGEX_MAX_LENGTH = 500;

/**
 * Most repetitions one pattern may ask for, counted over the whole pattern:
 * every `{n}`, `{n,}` or `{n,m}` adds its larger bound, times the bounds of
 * the counted groups around it. RE2 itself caps one counted repetition (and a
 * nest of them) at 1000 but not their sum, and the engine's work per row grows
 * with that sum: `[\x{0}-\x{10FFFF}]{1000}` forty times took 0.35–0.6 s a
 * query where once takes ~10 ms.
 */
export const REGEX_REPETITION_BUDGET = 1000;

/**
 * Why a `regex` / `not_regex` filter pattern is refused, or undefined when it
 * may run. The budget is checked first (compiling an over-budget pattern
 * alone can hold the event loop for tens of ms), then the real RE2 parser
 * judges the syntax, so the answer is the engine's own (`invalid escape
 * sequence: \y`; look-arounds and backreferences are not RE2). Verdicts are
 * remembered: a pattern within the budget still takes RE2 milliseconds to
 * compile on the event loop, and a client repeating one (a dashboard, a
 * flood) would pay them on every request.
 */
export function regexPatternProblem(pattern: string): string | undefined {
  return verdicts.get(pattern);
}

const verdicts = new BoundedMemo(checkPattern, 1_000, REGEX_MAX_LENGTH);

function checkPattern(pattern: string): string | undefined {
  const repetitions = summedRepetitions(pattern);
  if (repetitions > REGEX_REPETITION_BUDGET) {
    return `the regular expression asks for ${repetitions} repetitions in all ({n,m} counts, nested ones multiplied); at most ${REGEX_REPETITION_BUDGET}`;
  }
  if (pattern.length > REGEX_MAX_LENGTH) return `a regular expression takes at most ${REGEX_MAX_LENGTH} characters`;
  try {
    new RE2(pattern, 'u');
  } catch (error) {
    return `invalid regular expression (RE2 syntax): ${(error as Error).message}`;
  }
  return undefined;
}

const COUNTED = /^\{(\d+)(?:,(\d*))?\}/;

/**
 * The pattern's counted repetitions added up (see `REGEX_REPETITION_BUDGET`):
 * `a{10}b{20}` is 30, `(a{10}){5}` is 50, `(ab){5}` is 5. Escapes and
 * character classes are stepped over so a `{` inside them is not counted;
 * syntax is left to RE2, so anything unusual just counts as a literal.
 */
export function summedRepetitions(pattern: string): number {
  // Sums of the open groups, innermost last; `last` is what a quantifier here would repeat.
  const sums: number[] = [0];
  let last = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      i = escapeEnd(pattern, i);
      last = 0;
    } else if (c === '[') {
      i = classEnd(pattern, i);
      last = 0;
    } else if (c === '(') {
      sums.push(0);
      last = 0;
    } else if (c === ')' && sums.length > 1) {
      last = sums.pop()!;
      sums[sums.length - 1] += last;
    } else if (c === '{' && COUNTED.test(pattern.slice(i))) {
      const [text, low, high] = COUNTED.exec(pattern.slice(i))!;
      const repeated = Math.max(Number(low), Number(high || 0)) * Math.max(1, last);
      sums[sums.length - 1] += repeated - last;
      last = repeated;
      i += text.length - 1;
    } else {
      last = 0;
    }
  }
  return sums.reduce((a, b) => a + b, 0);
}

/** Index of the last character of the escape starting at `at` (`\x{…}`, `\p{…}`, `\Q…\E` included). */
function escapeEnd(pattern: string, at: number): number {
  const next = pattern[at + 1];
  if ((next === 'x' || next === 'p' || next === 'P') && pattern[at + 2] === '{') {
    const close = pattern.indexOf('}', at + 3);
    return close < 0 ? pattern.length : close;
  }
  if (next === 'Q') {
    const close = pattern.indexOf('\\E', at + 2);
    return close < 0 ? pattern.length : close + 1;
  }
  return at + 1;
}

/** Index of the `]` closing the class opened at `open` (or the end). */
function classEnd(pattern: string, open: number): number {
  let i = open + 1;
  if (pattern[i] === '^') i++;
  if (pattern[i] === ']') i++; // a leading ] is literal
  for (; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i = escapeEnd(pattern, i);
    else if (c === '[' && pattern[i + 1] === ':') {
      const close = pattern.indexOf(':]', i + 2);
      if (close >= 0) i = close + 1;
    } else if (c === ']') return i;
  }
  return pattern.length;
}

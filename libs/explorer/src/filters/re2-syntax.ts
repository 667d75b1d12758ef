/**
 * A conservative syntax check for RE2 (the engine ClickHouse's `match` runs),
 * done before a pattern reaches the store so a bad pattern is a 400 naming the
 * filter, never a 500. It refuses what RE2 does not support (look-arounds,
 * backreferences, atomic groups, possessive quantifiers, conditionals,
 * recursion), unbalanced groups and classes, dangling quantifiers, and
 * repetition that would blow up RE2's program size. It may refuse a few exotic
 * patterns RE2 would take; it must never pass one RE2 rejects for those reasons.
 */
export function re2SyntaxError(pattern: string): string | undefined {
  const MAX_REPEAT = 1000;
  // Each open group: the largest repetition factor found inside it so far.
  const groups: number[] = [1];
  let lastAtom: 'none' | 'atom' | 'quantified' = 'none';
  let lastFactor = 1;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      const next = pattern[i + 1];
      if (next === undefined) return 'trailing backslash';
      if (/[1-9]/.test(next)) return 'backreferences (\\1 …) are not supported by RE2';
      if (next === 'k' || next === 'g') return 'named backreferences are not supported by RE2';
      if (next === 'p' || next === 'P') {
        // \pL or \p{Greek}
        if (pattern[i + 2] === '{') {
          const close = pattern.indexOf('}', i + 3);
          if (close < 0) return 'unterminated \\p{…}';
          i = close;
        } else i += 2;
      } else if (next === 'x' && pattern[i + 2] === '{') {
        const close = pattern.indexOf('}', i + 3);
        if (close < 0) return 'unterminated \\x{…}';
        i = close;
      } else if (next === 'Q') {
        const close = pattern.indexOf('\\E', i + 2);
        i = close < 0 ? pattern.length : close + 1;
      } else i += 1;
      lastAtom = 'atom';
      lastFactor = 1;
      continue;
    }
    if (c === '[') {
      const end = classEnd(pattern, i);
      if (end < 0) return 'unterminated character class [';
      i = end;
      lastAtom = 'atom';
      lastFactor = 1;
      continue;
    }
    if (c === '(') {
      if (pattern[i + 1] === '?') {
        const rest = pattern.slice(i + 2);
        if (/^(=|!|<=|<!)/.test(rest)) return 'look-arounds ((?=, (?!, (?<=, (?<!) are not supported by RE2';
        if (rest.startsWith('>')) return 'atomic groups (?> are not supported by RE2';
        if (rest.startsWith('(')) return 'conditionals are not supported by RE2';
        if (/^(R|\d|&|P>|P=)/.test(rest)) return 'recursion and subroutine calls are not supported by RE2';
        if (rest.startsWith('#')) return 'comments (?# are not supported by RE2';
        const named = /^(P?<[A-Za-z_][A-Za-z0-9_]*>)/.exec(rest);
        const flags = /^([imsU]*(-[imsU]*)?)(:|\))/.exec(rest);
        if (named) i += 1 + named[1].length;
        else if (flags) {
          i += 2 + flags[1].length;
          // (?i) alone sets flags for the rest of the group: no group opens.
          if (flags[3] === ')') {
            lastAtom = 'none';
            continue;
          }
        } else return 'unsupported group syntax (?…';
      }
      groups.push(1);
      lastAtom = 'none';
      continue;
    }
    if (c === ')') {
      if (groups.length === 1) return 'unbalanced )';
      lastFactor = groups.pop()!;
      lastAtom = 'atom';
      continue;
    }
    if (c === '*' || c === '+' || c === '?' || c === '{') {
      let upper = c === '?' ? 1 : 2; // * and + count as a small factor: RE2 compiles them as loops
      if (c === '{') {
        const m = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i));
        if (!m) {
          lastAtom = 'atom'; // a literal {
          lastFactor = 1;
          continue;
        }
        const low = Number(m[1]);
        const high = m[3] ? Number(m[3]) : low;
        if (low > MAX_REPEAT || high > MAX_REPEAT) return `repetition counts above ${MAX_REPEAT} are not supported by RE2`;
        if (m[3] && high < low) return 'bad repetition range';
        upper = Math.max(low, high, 1);
        i += m[0].length - 1;
      }
      if (lastAtom === 'none') return 'missing argument to repetition operator';
      if (lastAtom === 'quantified') return 'bad repetition operator (doubled or possessive quantifier)';
      if (pattern[i + 1] === '?') i += 1; // lazy: fine in RE2
      else if (pattern[i + 1] === '+') return 'possessive quantifiers are not supported by RE2';
      const factor = lastFactor * upper;
      if (factor > MAX_REPEAT) return 'nested repetition is too large for RE2';
      groups[groups.length - 1] = Math.max(groups[groups.length - 1], factor);
      lastAtom = 'quantified';
      continue;
    }
    if (c === '|') {
      lastAtom = 'none';
      continue;
    }
    lastAtom = 'atom';
    lastFactor = 1;
  }
  if (groups.length > 1) return 'missing )';
  return undefined;
}

/** Index of the `]` closing the class opened at `open`, or -1. */
function classEnd(pattern: string, open: number): number {
  let i = open + 1;
  if (pattern[i] === '^') i++;
  if (pattern[i] === ']') i++; // a leading ] is literal
  for (; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (c === '[' && pattern[i + 1] === ':') {
      const close = pattern.indexOf(':]', i + 2);
      if (close < 0) return -1;
      i = close + 1;
    } else if (c === ']') return i;
  }
  return -1;
}

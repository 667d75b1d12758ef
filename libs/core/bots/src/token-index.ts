/** A lowercase literal that names a bot when it occurs in a lowercased User-Agent; lower `rank` wins when several occur. */
export interface TokenRule<T> {
  readonly token: string;
  /** Only where the character before it is not a letter or digit ("Spider" must not match inside "Baiduspider"). */
  readonly atWordStart: boolean;
  readonly rank: number;
  readonly value: T;
}

const KEY_LENGTH = 3;

/**
 * Finds the best-ranked token occurring in a string in one pass over it: each
 * position's first three characters look up the tokens that start with them,
 * so the cost grows with the string's length, not with the number of tokens,
 * and nothing backtracks. Tokens shorter than three characters are searched
 * one by one (the lists have few).
 */
export class TokenIndex<T> {
  private readonly byPrefix = new Map<number, TokenRule<T>[]>();
  private readonly short: TokenRule<T>[] = [];

  constructor(rules: readonly TokenRule<T>[]) {
    for (const rule of [...rules].sort((a, b) => a.rank - b.rank)) {
      if (rule.token.length < KEY_LENGTH) {
        this.short.push(rule);
        continue;
      }
      const key = keyAt(rule.token, 0);
      const bucket = this.byPrefix.get(key);
      if (bucket === undefined) this.byPrefix.set(key, [rule]);
      else bucket.push(rule);
    }
  }

  /** The best-ranked rule whose token occurs in `lower` (already lowercased), if any ranks below `rankBelow`. */
  best(lower: string, rankBelow = Number.POSITIVE_INFINITY): TokenRule<T> | undefined {
    let best: TokenRule<T> | undefined;
    let bound = rankBelow;
    for (let i = 0; i + KEY_LENGTH <= lower.length; i++) {
      const bucket = this.byPrefix.get(keyAt(lower, i));
      if (bucket === undefined) continue;
      for (const rule of bucket) {
        if (rule.rank >= bound) break;
        if (lower.startsWith(rule.token, i) && startsWord(lower, i, rule)) {
          best = rule;
          bound = rule.rank;
          break;
        }
      }
    }
    for (const rule of this.short) {
      if (rule.rank >= bound) break;
      if (occursAt(lower, rule)) {
        best = rule;
        bound = rule.rank;
      }
    }
    return best;
  }
}

// Ten bits of each of three characters: a key that stays a small integer (fast Map lookups); characters that share a key only share a bucket, and startsWith decides.
function keyAt(text: string, i: number): number {
  return ((text.charCodeAt(i) & 0x3ff) << 20) | ((text.charCodeAt(i + 1) & 0x3ff) << 10) | (text.charCodeAt(i + 2) & 0x3ff);
}

function startsWord<T>(text: string, i: number, rule: TokenRule<T>): boolean {
  return !rule.atWordStart || i === 0 || !isLetterOrDigit(text.charCodeAt(i - 1));
}

function occursAt<T>(text: string, rule: TokenRule<T>): boolean {
  for (let i = text.indexOf(rule.token); i !== -1; i = text.indexOf(rule.token, i + 1)) {
    if (startsWord(text, i, rule)) return true;
  }
  return false;
}

function isLetterOrDigit(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
}

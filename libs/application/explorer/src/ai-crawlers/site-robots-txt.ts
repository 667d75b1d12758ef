import { MAX_JUDGED_RULES, MAX_ROBOTS_TXT_BYTES, robotsFileOf, type RobotsFetch, type RobotsFile } from '@bpc/robots-txt';

/**
 * What reading a host's robots.txt gave: `rules` (a 2xx, parsed), `none` (a
 * 4xx: no file, every URL allowed), `server_error` (a 5xx or another status:
 * crawlers must treat every URL as disallowed, RFC 9309 §2.3.1.3),
 * `unreachable` (we could not fetch it: no verdicts, since we do not know
 * what the crawlers saw), `unjudged` (too many rules to judge here).
 */
export const ROBOTS_TXT_STATES = ['rules', 'none', 'server_error', 'unreachable', 'unjudged'] as const;
export type RobotsTxtState = (typeof ROBOTS_TXT_STATES)[number];

/** The robots.txt as the answer shows it. */
export interface RobotsTxtView {
  readonly url: string;
  readonly state: RobotsTxtState;
  /** The answer's status; null when there was none. */
  readonly httpStatus: number | null;
  /** When it was fetched (ISO 8601 UTC): answers reuse it for a few minutes. */
  readonly fetchedAt: string;
  /** Why there are no rules to read (state other than `rules`), else null. */
  readonly reason: string | null;
  /** Only the first 500 KiB were read (RFC 9309's minimum, Google's limit). */
  readonly truncated: boolean;
}

/** A host's robots.txt, read once and judged against many bots. */
export interface RobotsSnapshot {
  readonly view: RobotsTxtView;
  /** Null when nothing can be judged (`unreachable`, `unjudged`). */
  readonly file: RobotsFile | null;
  /** Tokens with a group of their own (lowercase, as robots-parser keys them); any other bot reads the `*` group. */
  readonly namedTokens: ReadonlySet<string>;
  /** Paths its Disallow lines name (the literal part before `*` or `$`), `/` aside, at most MAX_NAMED_PATHS. */
  readonly disallowPaths: readonly string[];
  /** How much memory it holds, about (the bytes read). */
  readonly size: number;
}

/** At most this many Allow/Disallow lines are judged: the edge's bound on its robots.txt verdicts (`MAX_JUDGED_RULES`), the same here. */
export const MAX_JUDGED_RULE_LINES = MAX_JUDGED_RULES;
/** At most this many (user-agent, rule) pairs: robots-parser copies each rule into every group that names it. */
export const MAX_JUDGED_RULE_PAIRS = 20_000;
/** Disallowed paths of the file tried on each bot. */
export const MAX_NAMED_PATHS = 20;

/** A User-Agent value as robots-parser keys its groups: lowercase, up to a `/`, trimmed. */
export function robotsTokenKey(token: string): string {
  const lower = token.toLowerCase();
  const slash = lower.indexOf('/');
  return (slash >= 0 ? lower.slice(0, slash) : lower).trim();
}

interface RobotsTxtScan {
  readonly ruleLines: number;
  readonly rulePairs: number;
  readonly namedTokens: ReadonlySet<string>;
  readonly disallowPaths: readonly string[];
}

/**
 * One pass over the file's lines as robots-parser reads them (comments cut,
 * split at the first `:`, consecutive User-agent lines forming one group), to
 * bound its cost before parsing, and to know which tokens have a group and
 * which paths the file disallows.
 */
export function scanRobotsTxt(text: string): RobotsTxtScan {
  const namedTokens = new Set<string>();
  const paths = new Set<string>();
  let agents: string[] = [];
  let afterAgentLine = false;
  let ruleLines = 0;
  let rulePairs = 0;
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const line = raw.includes('#') ? raw.slice(0, raw.indexOf('#')) : raw;
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === '') continue;
    if (key === 'user-agent') {
      if (!afterAgentLine) agents = [];
      if (value !== '') agents.push(robotsTokenKey(value));
      afterAgentLine = true;
      continue;
    }
    afterAgentLine = false;
    if (key !== 'allow' && key !== 'disallow') continue;
    ruleLines += 1;
    rulePairs += agents.length;
    agents.forEach((agent) => namedTokens.add(agent));
    const literal = value.split(/[*$]/)[0];
    if (key === 'disallow' && literal.startsWith('/') && literal !== '/' && paths.size < MAX_NAMED_PATHS) paths.add(literal);
  }
  return { ruleLines, rulePairs, namedTokens, disallowPaths: [...paths] };
}

const NOTHING_NAMED = { namedTokens: new Set<string>(), disallowPaths: [] };

/** A fetched robots.txt as the crawling conventions read it, bounded before parsing (pure). */
export function robotsSnapshotOf(robotsUrl: string, fetched: RobotsFetch, fetchedAtMs: number): RobotsSnapshot {
  const fetchedAt = new Date(fetchedAtMs).toISOString();
  const base = { url: robotsUrl, fetchedAt, truncated: false };
  if (fetched.kind === 'unreachable') {
    return { view: { ...base, state: 'unreachable', httpStatus: null, reason: fetched.reason }, file: null, ...NOTHING_NAMED, size: 0 };
  }
  const { status, body } = fetched;
  if (status < 200 || status >= 300) {
    const file = robotsFileOf(robotsUrl, fetched);
    const state = file.kind === 'allow_all' ? 'none' : 'server_error';
    return { view: { ...base, state, httpStatus: status, reason: file.kind === 'rules' ? null : file.reason }, file, ...NOTHING_NAMED, size: 0 };
  }
  const truncated = body.length > MAX_ROBOTS_TXT_BYTES;
  const scan = scanRobotsTxt(body.subarray(0, MAX_ROBOTS_TXT_BYTES).toString('utf8'));
  if (scan.ruleLines > MAX_JUDGED_RULE_LINES || scan.rulePairs > MAX_JUDGED_RULE_PAIRS) {
    const reason = `robots.txt has ${scan.ruleLines} Allow/Disallow lines (${scan.rulePairs} with their user agents): more than the ${MAX_JUDGED_RULE_LINES} (${MAX_JUDGED_RULE_PAIRS}) judged here`;
    return { view: { ...base, state: 'unjudged', httpStatus: status, reason, truncated }, file: null, ...NOTHING_NAMED, size: 0 };
  }
  const file = robotsFileOf(robotsUrl, fetched);
  return { view: { ...base, state: 'rules', httpStatus: status, reason: null, truncated }, file, namedTokens: scan.namedTokens, disallowPaths: scan.disallowPaths, size: Math.min(body.length, MAX_ROBOTS_TXT_BYTES) };
}

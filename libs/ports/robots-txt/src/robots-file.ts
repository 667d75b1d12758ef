import robotsParser from 'robots-parser';

/** Largest part of a robots.txt that is read: RFC 9309 lets crawlers stop at 500 KiB, and Google does. */
export const MAX_ROBOTS_TXT_BYTES = 500 * 1024;

/** How fetching a host's robots.txt ended, as `robotsFileOf` reads it. */
export type RobotsFetch =
  | { readonly kind: 'answered'; readonly status: number; readonly body: Buffer }
  /** No answer: connection refused, timeout, a redirect loop or one to an address we may not reach. */
  | { readonly kind: 'unreachable'; readonly reason: string };

/**
 * A host's robots.txt as crawlers must treat it (RFC 9309 §2.3.1): the rules
 * of a 2xx answer; every URL allowed when it answers 4xx (there is none);
 * every URL disallowed when it answers 5xx or cannot be reached.
 */
export type RobotsFile =
  | { readonly kind: 'rules'; readonly robotsUrl: string; readonly rules: ReturnType<typeof robotsParser>; readonly truncated: boolean }
  | { readonly kind: 'allow_all'; readonly reason: string }
  | { readonly kind: 'disallow_all'; readonly reason: string };

export function robotsFileOf(robotsUrl: string, fetched: RobotsFetch): RobotsFile {
  if (fetched.kind === 'unreachable') return { kind: 'disallow_all', reason: `robots.txt unreachable: ${fetched.reason}` };
  const { status, body } = fetched;
  if (status >= 500) return { kind: 'disallow_all', reason: `robots.txt answered ${status}` };
  if (status >= 400) return { kind: 'allow_all', reason: `robots.txt answered ${status}: no rules` };
  if (status < 200 || status >= 300) return { kind: 'disallow_all', reason: `robots.txt answered ${status}` };
  const truncated = body.length > MAX_ROBOTS_TXT_BYTES;
  // A binary or mis-encoded file reads as whatever lines parse: the rest are ignored, as crawlers ignore them.
  const text = body.subarray(0, MAX_ROBOTS_TXT_BYTES).toString('utf8');
  return { kind: 'rules', robotsUrl, rules: robotsParser(robotsUrl, text), truncated };
}

/** Whether `productToken`'s bot (its robots.txt name: `Googlebot`, `GPTBot`) may fetch `url`, by the group that names it or else `*`. */
export function mayCrawl(file: RobotsFile, productToken: string, url: string): boolean {
  switch (file.kind) {
    case 'allow_all':
      return true;
    case 'disallow_all':
      return false;
    case 'rules':
      // A URL of another origin is not this file's to rule on: allowed (its own host's file decides).
      return file.rules.isAllowed(url, productToken) ?? true;
  }
}

/** How a site treats one bot as a whole: `blocked` when it may not fetch the site's root (a site blocking a crawler blocks `/`), else `allowed`. */
export function siteStanceOn(file: RobotsFile, productToken: string, origin: string): 'allowed' | 'blocked' {
  return mayCrawl(file, productToken, `${origin}/`) ? 'allowed' : 'blocked';
}

import { ROBOTS_SCOPES, type RobotsScope } from '@bpc/domain';

/** Directives that take a value after a colon: in `X-Robots-Tag` they are not a bot's name. */
const VALUED_DIRECTIVES = new Set(['unavailable_after', 'max-snippet', 'max-image-preview', 'max-video-preview']);

/** Which scopes say `noindex` and which `nofollow`; `none` says both. */
export class RobotsDirectives {
  readonly noindex = new Set<RobotsScope>();
  readonly nofollow = new Set<RobotsScope>();

  /** A `<meta name=robots|googlebot|bingbot content=…>`: comma-separated directives for that scope. */
  addMeta(name: string, content: string): void {
    const scope = scopeOf(name);
    if (scope) for (const directive of content.split(',')) this.add(scope, directive);
  }

  /**
   * One `X-Robots-Tag` header value: directives for every bot, or after a
   * bot's name and a colon for that bot (`googlebot: noindex, nofollow`),
   * the name holding until the next one.
   */
  addHeader(value: string): void {
    let scope: RobotsScope | undefined = 'robots';
    for (const part of value.split(',')) {
      const named = /^\s*([a-z0-9_-]+)\s*:(.*)$/i.exec(part);
      if (named && !VALUED_DIRECTIVES.has(named[1]!.toLowerCase())) {
        scope = scopeOf(named[1]!);
        if (scope) this.add(scope, named[2]!);
      } else if (scope) this.add(scope, part);
    }
  }

  private add(scope: RobotsScope, directive: string): void {
    const name = directive.trim().toLowerCase();
    if (name === 'noindex' || name === 'none') this.noindex.add(scope);
    if (name === 'nofollow' || name === 'none') this.nofollow.add(scope);
  }
}

function scopeOf(name: string): RobotsScope | undefined {
  const lower = name.trim().toLowerCase();
  return (ROBOTS_SCOPES as readonly string[]).includes(lower) ? (lower as RobotsScope) : undefined;
}

/** The scopes that said a directive, in `ROBOTS_SCOPES` order. */
export const scopesIn = (said: ReadonlySet<RobotsScope>): RobotsScope[] => ROBOTS_SCOPES.filter((scope) => said.has(scope));

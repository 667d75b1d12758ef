import { refusalOfUrl, type EgressRules } from '@bpc/egress';

/** What a render's tab knows about one request when interception pauses it. */
export interface RenderRequestFacts {
  readonly url: string;
  readonly resourceType: string;
  /** A navigation of the tab's main frame (not of an iframe). */
  readonly mainFrameNavigation: boolean;
  /** The request follows a redirect answer. */
  readonly redirected: boolean;
  /** Part of the render's own navigation to the page (the first main-frame navigation and its redirects). */
  readonly initialNavigation: boolean;
}

export type RenderRequestVerdict =
  | { readonly kind: 'continue' }
  /** A resource a bot's HTML does not depend on: not loaded, so renders are faster and lighter. */
  | { readonly kind: 'skip' }
  /** A subresource or frame to where no render may go; the render goes on without it. */
  | { readonly kind: 'refuse'; readonly reason: string }
  /** The origin answered the page with a redirect: it is the page (stored as it is); its target is never requested. */
  | { readonly kind: 'origin-redirect' }
  /** The page's main frame tried to leave the page's host: the render fails and stores nothing. */
  | { readonly kind: 'navigated-away'; readonly reason: string };

const SKIPPED_RESOURCES = new Set(['image', 'media', 'font']);
/** Schemes that never leave the browser. */
const LOCAL_SCHEMES = new Set(['data:', 'blob:', 'about:']);

/**
 * The rules for every request a render's tab makes, judged before it leaves
 * (request interception). Addresses are judged here only when the URL spells
 * one out; names are resolved and checked by the egress proxy the request
 * then goes through, so that the address checked is the one connected to.
 */
export function judgeRenderRequest(facts: RenderRequestFacts, pageUrl: URL, rules: EgressRules): RenderRequestVerdict {
  let url: URL;
  try {
    url = new URL(facts.url);
  } catch {
    return { kind: 'refuse', reason: 'not a URL' };
  }
  if (facts.mainFrameNavigation) {
    if (facts.initialNavigation) return facts.redirected ? { kind: 'origin-redirect' } : { kind: 'continue' };
    if (url.host !== pageUrl.host || (url.protocol !== 'http:' && url.protocol !== 'https:')) return { kind: 'navigated-away', reason: `to ${url.protocol}//${url.host}` };
    const refusal = refusalOfUrl(url, rules);
    return refusal ? { kind: 'navigated-away', reason: refusal } : { kind: 'continue' };
  }
  if (LOCAL_SCHEMES.has(url.protocol)) return SKIPPED_RESOURCES.has(facts.resourceType) ? { kind: 'skip' } : { kind: 'continue' };
  const refusal = refusalOfUrl(url, rules);
  if (refusal) return { kind: 'refuse', reason: refusal };
  return SKIPPED_RESOURCES.has(facts.resourceType) ? { kind: 'skip' } : { kind: 'continue' };
}

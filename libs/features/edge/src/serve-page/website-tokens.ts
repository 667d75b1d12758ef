import type { SpoofedBotPolicy, WebsiteConfig } from '@bpc/config';
import { digestsEqual, parseContentSignal, sha256Digest } from '@bpc/domain';
import { agentTokensOf } from '../serve-markdown/markdown-wanted';

/** A website the edge serves: the one its `X-Prerender-Token` names. */
export interface Website {
  readonly id: string;
  readonly hostId: number;
  readonly tokenSha256: Buffer;
  /** What a bot whose claim is proven false gets (`websites[].spoofed_bots`). */
  readonly spoofedBots: SpoofedBotPolicy;
  readonly agents: WebsiteAgents;
}

/** What the website configured for AI agents (docs/agents.md). */
export interface WebsiteAgents {
  /** `markdown_for_agents`, lower-cased: these get Markdown without asking for it. */
  readonly markdownFor: readonly string[];
  /** `content_signal` as sent (`search=yes, ai-input=yes, ai-train=no`); undefined: none. */
  readonly contentSignal: string | undefined;
  /** `llms_txt` on: the site's name (absent: the host's first hostname) and summary; undefined: off. */
  readonly llmsTxt: { readonly name: string | undefined; readonly summary: string } | undefined;
}

function agentsOf(website: WebsiteConfig): WebsiteAgents {
  const signal = website.content_signal === undefined ? undefined : parseContentSignal(website.content_signal);
  return {
    markdownFor: agentTokensOf(website.markdown_for_agents ?? []),
    contentSignal: signal?.ok ? signal.value : undefined,
    llmsTxt: website.llms_txt ? { name: website.name, summary: website.summary ?? '' } : undefined,
  };
}

/** The websites that have an edge token, found by token. */
export class WebsiteTokens {
  private readonly websites: readonly Website[];
  /** Tokens that matched a website: at most one per website, as each has one token hash. */
  private readonly websiteByToken = new Map<string, Website>();

  constructor(websites: readonly WebsiteConfig[]) {
    this.websites = websites.flatMap((w) => (w.prerender_token_sha256 ? [{ id: w.id, hostId: w.host_id, tokenSha256: Buffer.from(w.prerender_token_sha256, 'hex'), spoofedBots: w.spoofed_bots, agents: agentsOf(w) }] : []));
  }

  /**
   * A token is hashed and compared with every website's hash in constant time;
   * one that matched is remembered, so a website's bots cost one SHA-256, not
   * one per request (it was the largest item of a cache hit after the socket
   * write). Answering a known token faster tells nothing its 200 does not.
   */
  /** What a website with a token configured for AI agents. */
  agentsOf(websiteId: string): WebsiteAgents | undefined {
    return this.websites.find((website) => website.id === websiteId)?.agents;
  }

  websiteOf(token: string | undefined): Website | undefined {
    if (!token) return undefined;
    const known = this.websiteByToken.get(token);
    if (known) return known;
    const digest = sha256Digest(token);
    let found: Website | undefined;
    for (const website of this.websites) if (digestsEqual(digest, website.tokenSha256) && !found) found = website;
    if (found) this.websiteByToken.set(token, found);
    return found;
  }
}

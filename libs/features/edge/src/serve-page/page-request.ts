import type { DimensionDefinition } from '@bpc/domain';
import type { AnswerFormat } from '../answer-format/answer-format';
import type { ClaimedBot } from '../claimed-bot/claimed-bots';
import type { Website } from './website-tokens';

/** A bot request as the customer's middleware forwards it. */
export interface BotPageRequest {
  /** The request target: `/` + the page's absolute URL (query included). */
  readonly target: string;
  readonly token: string | undefined;
  readonly userAgent: string;
  readonly acceptEncoding: string | undefined;
  /** The bot's `Accept`: Markdown when it prefers `text/markdown`. */
  readonly accept?: string | undefined;
  /** The connection's peer (the customer's middleware or a load balancer, never the bot itself). */
  readonly peerAddress?: string;
  /** `X-Forwarded-For` as received: believed only as far as `edge.trusted_proxies` vouch for it. */
  readonly forwardedFor?: string | readonly string[];
  /** HEAD: the answer's headers only (its body is not sent, and not counted as sent). */
  readonly headOnly?: boolean;
  /** The id the bot gets in `X-Request-Id`, the recorded request carries, and the logs name the request by. */
  readonly requestId: string;
  /** `performance.now()` when the request arrived. */
  readonly receivedAt: number;
}

/** A bot request once accepted: its website, page and dimension known. */
export interface PageRequest {
  readonly website: Website;
  readonly hostId: number;
  readonly url: string;
  readonly hostname: string;
  readonly dimension: DimensionDefinition;
  /** Who the User-Agent says the bot is, and whether that is proven. */
  readonly bot: ClaimedBot;
  readonly request: BotPageRequest;
  readonly requestId: string;
  readonly started: number;
  /** The format the bot asked for (or its website gives it); what it gets depends on the page too. */
  readonly wants: AnswerFormat;
}

import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import ipaddr from 'ipaddr.js';
import { parseContentSignal } from '@bpc/domain';
import { isS3BucketName } from './s3-bucket-name';

/**
 * The configuration file, field by field. Names are snake_case as in the
 * daemon specification (`recache.max_concurrent`, `scheduler_control_api` …).
 * Defaults live on the fields; a value not listed here is refused at startup.
 */

export const DIMENSION_ACTIONS = ['render', 'bypass'] as const;
export type DimensionAction = (typeof DIMENSION_ACTIONS)[number];

export const URL_RULE_ACTIONS = ['render', 'bypass', 'ignore'] as const;
export type UrlRuleAction = (typeof URL_RULE_ACTIONS)[number];

export class DimensionMatchConfig {
  /** Case-insensitive regular expression on the bot's User-Agent; absent = no UA condition. */
  @IsOptional() @IsString() @IsNotEmpty() user_agent?: string;
  /** The dimension used when no other dimension of the host matches. */
  @IsOptional() @IsBoolean() fallback: boolean = false;
}

export class DimensionConfig {
  /** Dimension id, stored with each cache entry and recorded with each bot request; keep it stable. */
  @IsInt() @Min(1) @Max(65535) id!: number;
  /** Dimension name, as bot requests and metrics show it. */
  @IsString() @Matches(/^[a-z0-9][a-z0-9_-]*$/, { message: 'must be lower-case letters, digits, - or _' }) name!: string;
  /** Which bot requests use this dimension (its cached copy of each page). */
  @ValidateNested() @Type(() => DimensionMatchConfig) match: DimensionMatchConfig = new DimensionMatchConfig();
  /** What a cache miss or recache does when no URL rule and no request mode decide: browser render or origin fetch. */
  @IsIn(DIMENSION_ACTIONS) action: DimensionAction = 'render';
}

export class UrlRuleConfig {
  /** Regular expression on the URL path and query (e.g. `^/api/`). */
  @IsString() @IsNotEmpty() pattern!: string;
  /** `ignore`: never queued for recache (by a request or by autorecache); a bot asking for it is still served. */
  @IsIn(URL_RULE_ACTIONS) action!: UrlRuleAction;
  /** Cache TTL in seconds for matching URLs; absent = the host's. */
  @IsOptional() @IsInt() @Min(1) cache_ttl?: number;
}

/** When a rendered page of the host is done (docs/rendering.md). */
export class HostRenderConfig {
  /** The network must be quiet this long (ms) after the load event and the page's last request before the snapshot. */
  @IsInt() @Min(0) @Max(10_000) quiet_ms: number = 300;
  /** A request open longer than this (ms) stops holding the page (a long poll, a beacon that never ends); EventSource and WebSocket never hold it. */
  @IsInt() @Min(100) @Max(120_000) long_request_ms: number = 4000;
  /** Honour `window.prerenderReady`: while the page holds it `false`, the snapshot waits (up to the render's timeout). */
  @IsBoolean() prerender_ready: boolean = true;
}

/**
 * Last-good protection (docs/rendering.md): a new render or origin fetch
 * that looks broken next to the page's good (2xx) entry keeps that entry.
 */
export class HostLastGoodConfig {
  /** false: every produced page is stored as it comes, blank or not. */
  @IsBoolean() enabled: boolean = true;
  /** A page smaller than this × the last good page's bytes keeps the old entry (0 = off). */
  @IsNumber() @Min(0) @Max(1) min_size_ratio: number = 0.3;
  /** A page below this many bytes whose `<title>` matches `soft_404_title_pattern` is a soft 404. */
  @IsInt() @Min(0) @Max(1_048_576) soft_404_size_floor_bytes: number = 2048;
  /** Regular expression (case-insensitive) on the `<title>` of a "not found" page. */
  @IsString() @IsNotEmpty() soft_404_title_pattern: string = "\\b404\\b|not found|does(?: not|n't) exist|no longer (?:exists|available)";
}

export class HostConfig {
  /** Host id, as the daemon API names the host (`host_id`). */
  @IsInt() @Min(1) host_id!: number;
  /** Hostnames whose pages belong to this host; a URL on any other hostname is refused. */
  @IsArray() @ArrayMinSize(1) @ArrayUnique() @IsString({ each: true }) @IsNotEmpty({ each: true }) hostnames!: string[];
  /** Origin base URL fetched on bypass and rendered from; absent = https://<the page's hostname> on the default port. */
  @IsOptional() @Matches(/^https?:\/\/[^/\s]+$/, { message: 'must be an http(s) origin without a path' }) origin?: string;
  /** Cache dimensions: each page is cached once per dimension (e.g. desktop and mobile), chosen by the bot's User-Agent. */
  @IsArray() @ArrayMinSize(1) @ValidateNested({ each: true }) @Type(() => DimensionConfig) dimensions!: DimensionConfig[];
  /** Per-URL rules, first match wins: render, bypass (origin fetch) or ignore (never queued), optionally with their own TTL. */
  @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => UrlRuleConfig) url_rules: UrlRuleConfig[] = [];
  /** Cache TTL in seconds: when a served entry is due for autorecache. */
  @IsInt() @Min(1) cache_ttl: number = 86_400;
  /** When a rendered page counts as done. */
  @ValidateNested() @Type(() => HostRenderConfig) render: HostRenderConfig = new HostRenderConfig();
  /** When a new render keeps the page's last good entry instead (blank, soft 404, much smaller). */
  @ValidateNested() @Type(() => HostLastGoodConfig) last_good: HostLastGoodConfig = new HostLastGoodConfig();
}

/** A sitemap the daemon recaches on an interval to keep the website's cache warm (docs/sitemaps.md). */
export class WebsiteSitemapConfig {
  /** Absolute http(s) URL of a sitemap or sitemap index on one of the website's hostnames (or its host's origin). */
  @IsString() @Matches(/^https?:\/\/\S+$/, { message: 'must be an absolute http(s) URL' }) url!: string;
  /** Minutes between two recaches of it, in windows aligned on the clock (60: once each hour, on the hour); at least 5. */
  @IsInt() @Min(5) @Max(10_080) every_minutes!: number;
}

/** Alert when render failures of the website's host in a window reach a threshold. */
export class RenderFailureAlertConfig {
  /** Failed renders (outcomes retry_scheduled, gave_up, failed) in the window that raise the alert. */
  @IsInt() @Min(1) @Max(1_000_000) threshold: number = 20;
  /** Window length in minutes; at most one alert per window (windows aligned on the clock). */
  @IsInt() @Min(1) @Max(1440) window_minutes: number = 15;
}

/** Alert when a page bots request often starts answering 4xx/5xx to bots. */
export class PageErrorAlertConfig {
  /** Bot requests the page had in the window before (mostly answered below 400) for it to count as requested often. */
  @IsInt() @Min(1) @Max(1_000_000) min_requests: number = 10;
  /** Window length in minutes: the last window is compared with the one before; at most one alert per page per window. */
  @IsInt() @Min(1) @Max(1440) window_minutes: number = 60;
}

/** Alert when `noindex` appears on many pages at once (docs/seo-health.md). */
export class NoindexAppearedAlertConfig {
  /** Pages on which `noindex` appeared within the window that raise the alert. */
  @IsInt() @Min(1) @Max(1_000_000) min_pages: number = 10;
  /** Window length in minutes; at most one alert per window. */
  @IsInt() @Min(1) @Max(1440) window_minutes: number = 60;
}

/** Alert when the pages with critical SEO issues rise day over day (docs/seo-health.md). */
export class CriticalPagesUpAlertConfig {
  /** How many percent today's pages with critical issues (so far) must be above yesterday's. */
  @IsInt() @Min(1) @Max(100_000) increase_percent: number = 50;
  /** Fewest pages with critical issues today for the alert: a rise of a few pages is no incident. */
  @IsInt() @Min(1) @Max(1_000_000) min_pages: number = 10;
}

/** A website's SEO issue thresholds (docs/seo-health.md). */
export class WebsiteSeoConfig {
  /** Longest title, in characters, before `title_too_long` (search results show about 60). */
  @IsInt() @Min(1) @Max(10_000) title_max_length: number = 60;
  /** Fewest words of visible text before `thin_content`. */
  @IsInt() @Min(0) @Max(1_000_000) thin_content_words: number = 200;
  /** Fewest images without alternative text that make `images_without_alt`. */
  @IsInt() @Min(1) @Max(1_000_000) images_without_alt: number = 1;
}

/** A website's alert webhook (docs/alerts.md). */
export class WebsiteAlertsConfig {
  /**
   * Where alerts are POSTed (http or https). A host that is, or resolves to,
   * an internal address is refused at startup unless `allow_internal_target`.
   */
  @Matches(/^https?:\/\/[^/\s]+(\/\S*)?$/, { message: 'must be an http(s) URL' }) webhook_url!: string;
  /**
   * HMAC-SHA256 key of the `X-BPC-Signature` header, in the file (local
   * development only: production configurations give `secret_env`).
   */
  @IsOptional() @IsString() @Matches(/^.{16,}$/s, { message: 'must be at least 16 characters' }) secret?: string;
  /** Name of the environment variable holding the signing key (16+ characters); read at startup. */
  @IsOptional() @Matches(/^[A-Za-z_][A-Za-z0-9_]*$/, { message: 'must be an environment variable name' }) secret_env?: string;
  /** Lets the webhook target be a loopback or private address (a receiver on the same network); exactly its scheme, host and port. */
  @IsBoolean() allow_internal_target: boolean = false;
  /** Render failure alerts; absent = off. */
  @IsOptional() @ValidateNested() @Type(() => RenderFailureAlertConfig) render_failures?: RenderFailureAlertConfig;
  /** Page error alerts; absent = off. */
  @IsOptional() @ValidateNested() @Type(() => PageErrorAlertConfig) error_pages?: PageErrorAlertConfig;
  /** An alert when an export of the website completes or fails. */
  @IsBoolean() export_finished: boolean = true;
  /** `noindex` appearing on at least `min_pages` pages within `window_minutes`; absent = off. */
  @IsOptional() @ValidateNested() @Type(() => NoindexAppearedAlertConfig) noindex_appeared?: NoindexAppearedAlertConfig;
  /** Pages with critical issues up by at least `increase_percent` % day over day (and at least `min_pages`); absent = off. */
  @IsOptional() @ValidateNested() @Type(() => CriticalPagesUpAlertConfig) critical_pages_up?: CriticalPagesUpAlertConfig;
}

export const SPOOFED_BOT_POLICIES = ['serve_cached_only', 'render', 'refuse'] as const;
export type SpoofedBotPolicy = (typeof SPOOFED_BOT_POLICIES)[number];

export class WebsiteConfig {
  /** Identifier in public API paths (`/api/websites/{website}`). */
  @IsString() @Matches(/^[a-z0-9][a-z0-9._-]{0,62}$/, { message: 'must be 1-63 lower-case letters, digits, ., - or _' }) id!: string;
  /** The host (`hosts[].host_id`) whose pages this website serves. */
  @IsInt() @Min(1) host_id!: number;
  /** The account the website belongs to: export slots and Data Explorer limits are per account. */
  @IsString() @IsNotEmpty() account_id!: string;
  /** The Data Explorer platform module. */
  @IsBoolean() platform_module: boolean = true;
  /**
   * SHA-256 (hex) of the website's pre-rendering token, the `X-Prerender-Token`
   * its middleware sends to the edge; absent = the edge serves nothing for it.
   */
  @IsOptional() @Matches(/^[0-9a-f]{64}$/, { message: 'must be 64 lower-case hex digits (SHA-256)' }) prerender_token_sha256?: string;
  /** Sitemaps the daemon recaches on an interval (warm-up), at normal priority; one daemon of a cluster runs each interval. */
  @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => WebsiteSitemapConfig) sitemaps: WebsiteSitemapConfig[] = [];
  /** The website's alert webhook; absent = no alerts. */
  @IsOptional() @ValidateNested() @Type(() => WebsiteAlertsConfig) alerts?: WebsiteAlertsConfig;
  /** Thresholds of the SEO issues that have one (docs/seo-health.md); absent = the defaults. */
  @IsOptional() @ValidateNested() @Type(() => WebsiteSeoConfig) seo?: WebsiteSeoConfig;
  /**
   * What the edge does for a bot whose claim is proven false (`verified: no`,
   * docs/edge.md): `serve_cached_only` serves a cached page and never renders
   * (a miss answers 403 `UNVERIFIED_BOT`), `render` serves it like any bot,
   * `refuse` answers 403 `UNVERIFIED_BOT` always. Claims not checked or not
   * known (`unknown`) are always served like any bot.
   */
  @IsIn(SPOOFED_BOT_POLICIES) spoofed_bots: SpoofedBotPolicy = 'serve_cached_only';
  /** The site's name, as its `llms.txt` heading says it; absent = the host's first hostname. */
  @IsOptional() @IsString() @Matches(/^[^\r\n]{1,200}$/, { message: 'must be 1-200 characters on one line' }) name?: string;
  /** One paragraph about the site, the blockquote of its `llms.txt`; absent = none. */
  @IsOptional() @IsString() @Matches(/^[\s\S]{0,2000}$/, { message: 'must be at most 2000 characters' }) summary?: string;
  /** The edge serves `https://<host>/llms.txt` itself, generated from the cached pages (docs/agents.md); false = an ordinary page. */
  @IsBoolean() llms_txt: boolean = false;
  /**
   * User-Agent tokens (case-insensitive, matched anywhere in the User-Agent,
   * e.g. `ChatGPT-User`) of agents that get Markdown without asking for it
   * in `Accept` (docs/agents.md); empty = only agents that ask.
   */
  @IsArray() @IsString({ each: true }) @Matches(/^[A-Za-z0-9][A-Za-z0-9._/ -]{0,63}$/, { each: true, message: 'each token must be 1-64 letters, digits, . _ / - or spaces' }) markdown_for_agents: string[] = [];
  /** `Content-Signal` sent with Markdown and `llms.txt` answers, in contentsignals.org syntax (`search=yes, ai-input=yes, ai-train=no`); absent = none. */
  @IsOptional()
  @ValidateBy({ name: 'isContentSignal', validator: { validate: (value) => typeof value === 'string' && parseContentSignal(value).ok, defaultMessage: (args) => contentSignalIssue(args?.value) } })
  content_signal?: string;
}

function contentSignalIssue(value: unknown): string {
  if (typeof value !== 'string') return 'must be a string such as "search=yes, ai-input=yes, ai-train=no"';
  const parsed = parseContentSignal(value);
  return parsed.ok ? '' : `${parsed.reason} (contentsignals.org syntax, e.g. "search=yes, ai-input=yes, ai-train=no")`;
}

/** Data Explorer limits of an account; absent values take the specification's defaults (500 / 100 / 1,000,000). */
export class AccountLimitsConfig {
  /** Largest `perPage` of a Data Explorer query (default 500). */
  @IsOptional() @IsInt() @Min(1) @Max(500) per_page_max?: number;
  /** `perPage` when a query gives none (default 100). */
  @IsOptional() @IsInt() @Min(1) @Max(500) per_page_default?: number;
  /** Most rows of one CSV export (default 1,000,000). */
  @IsOptional() @IsInt() @Min(1) @Max(1_000_000) export_row_cap?: number;
}

export class AccountConfig {
  /** Account id, as `websites[].account_id` names it. */
  @IsString() @IsNotEmpty() id!: string;
  /** Data Explorer limits of the account. */
  @ValidateNested() @Type(() => AccountLimitsConfig) limits: AccountLimitsConfig = new AccountLimitsConfig();
}

export class RecacheConfig {
  /** Recache attempts (renders or origin fetches) running at once. */
  @IsInt() @Min(1) @Max(1000) max_concurrent: number = 5;
  /** Seconds per attempt. */
  @IsInt() @Min(1) @Max(3600) timeout_per_url: number = 60;
}

export class InternalQueueConfig {
  /** Attempts per entry (backoff 5 s, then 10 s). */
  @IsInt() @Min(1) @Max(100) max_retries: number = 3;
  /** Bound of the scheduler's internal queue of pulled entries (it keeps at most 2 × `recache.max_concurrent` of them). */
  @IsInt() @Min(1) @Max(100_000) max_size: number = 100;
}

export class SchedulerConfig {
  /** false: this daemon serves its API but never drains (another replica does). */
  @IsBoolean() enabled: boolean = true;
  /** How often (ms) the scheduler pulls due entries from the queue store. */
  @IsInt() @Min(10) @Max(60_000) tick_ms: number = 1000;
}

export class RenderServiceConfig {
  /** Browser tabs: the render-service capacity. */
  @IsInt() @Min(1) @Max(256) tabs: number = 4;
  /** Share of tabs kept for online (bot miss) traffic, never used by recache. */
  @IsInt() @Min(0) @Max(100) reservation_percent: number = 25;
  /** The headless browser (Debian's `chromium` package; nothing is downloaded). */
  @IsString() @IsNotEmpty() chromium_path: string = '/usr/bin/chromium';
  /**
   * Address ranges (CIDR) renders and origin fetches may not reach, on top of
   * the internal ranges and the machine's own addresses, which are always
   * refused: e.g. the public address of the network's NAT or load balancer.
   */
  @IsArray() @ValidateBy({ name: 'isCidr', validator: { validate: (value) => typeof value === 'string' && ipaddr.isValidCIDR(value), defaultMessage: () => 'each range must be a CIDR range such as 203.0.113.0/24 or 2001:db8::/32' } }, { each: true })
  egress_denied_ranges: string[] = [];
}

export const EVENT_LOG_ADAPTERS = ['file', 'kafka'] as const;
export const QUEUE_STORE_ADAPTERS = ['memory', 'redis'] as const;
export const EXPLORER_STORE_ADAPTERS = ['chdb', 'clickhouse'] as const;
export const OBJECT_STORE_ADAPTERS = ['files', 's3'] as const;

export class AdaptersConfig {
  /** Event log: append-only files in `data_dir` (standalone) or Kafka (cluster). */
  @IsIn(EVENT_LOG_ADAPTERS) event_log: (typeof EVENT_LOG_ADAPTERS)[number] = 'file';
  /** Queue and cache-entry store, rate-limit counters and export slots: in memory (standalone) or Redis (cluster). */
  @IsIn(QUEUE_STORE_ADAPTERS) queue_store: (typeof QUEUE_STORE_ADAPTERS)[number] = 'memory';
  /** Data Explorer store: chDB in the process (standalone) or a ClickHouse server (cluster). */
  @IsIn(EXPLORER_STORE_ADAPTERS) explorer_store: (typeof EXPLORER_STORE_ADAPTERS)[number] = 'chdb';
  /** Page bodies and export files: files under `data_dir` (standalone, or a volume every replica mounts) or an S3-compatible bucket (cluster; docs/object-store.md). */
  @IsIn(OBJECT_STORE_ADAPTERS) object_store: (typeof OBJECT_STORE_ADAPTERS)[number] = 'files';
}

export class KafkaConfig {
  /** Kafka brokers to bootstrap from. */
  @IsArray() @ArrayMinSize(1) @IsString({ each: true }) @Matches(/^[^\s:]+:\d+$/, { each: true, message: 'each broker must be host:port' }) brokers!: string[];
  /** Kafka client id (log lines and broker metrics). */
  @IsString() @IsNotEmpty() client_id: string = 'bpc';
  /** Longest a consumer fetch waits for new records, ms: bounds how soon an idle projector sees a new event. */
  @IsInt() @Min(10) @Max(10_000) fetch_max_wait_ms: number = 100;
  /**
   * How long the group waits for a silent consumer (a replica killed, a
   * network cut) before it hands that consumer's partitions to the others, ms:
   * also the longest those partitions stand still after a crash. The broker
   * bounds it (`group.min.session.timeout.ms`, 6 s by default, to
   * `group.max.session.timeout.ms`).
   */
  @IsInt() @Min(1_000) @Max(3_600_000) session_timeout_ms: number = 30_000;
  /** Prefix of topic and consumer-group names (`<namespace>.bpc.queue.v1`); empty = none. */
  @IsString() @Matches(/^[a-zA-Z0-9._-]*$/, { message: 'may hold letters, digits, ., _ and - only' }) namespace: string = '';
}

export class RedisConfig {
  /** Redis server. */
  @Matches(/^rediss?:\/\/\S+$/, { message: 'must be a redis:// or rediss:// URL' }) url!: string;
  /** Every key lives under the hash tag `{<key_prefix>}`, so one Redis Cluster slot holds them all (the Lua scripts touch several keys). */
  @IsString() @IsNotEmpty() key_prefix: string = 'bpc';
}

export class ClickhouseConfig {
  /** ClickHouse server's HTTP interface. */
  @Matches(/^https?:\/\/\S+$/, { message: 'must be an http(s) URL' }) url!: string;
  /** Database of the explorer tables. */
  @IsString() @IsNotEmpty() database: string = 'default';
  /** ClickHouse user. */
  @IsString() username: string = 'default';
  /** ClickHouse password. */
  @IsString() password: string = '';
}

/**
 * The S3-compatible bucket of `adapters.object_store: s3` (docs/object-store.md).
 * Credentials are never in this file: the SDK's default chain reads them from
 * the environment (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, optionally
 * AWS_SESSION_TOKEN; or AWS_PROFILE, web identity, instance metadata).
 */
export class S3Config {
  /** Bucket the objects live in; it must exist (readiness says "bucket missing" otherwise). */
  @ValidateBy({ name: 'isS3BucketName', validator: { validate: (value) => typeof value === 'string' && isS3BucketName(value), defaultMessage: () => 'must follow the naming rules of S3 buckets: 3 to 63 lower-case letters, digits, dots and hyphens, a letter or digit at each end, no two dots in a row, not an IP address' } })
  bucket!: string;
  /** Keys live under `<prefix>/` in the bucket, so several deployments can share one; empty = the bucket's root. */
  @IsString() @Matches(/^$|^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/, { message: 'must be empty or /-separated segments of letters, digits, ., _ and - (no leading, trailing or doubled /, no . or .. segment)' })
  @MaxLength(256)
  prefix: string = '';
  /** An S3-compatible server (`http://minio:9000`); absent = AWS S3 in `region`. */
  @IsOptional() @Matches(/^https?:\/\/[^\s/?#]+\/?$/, { message: 'must be an http(s) URL of a server, without a path' }) endpoint?: string;
  /** Region the requests are signed for (MinIO accepts any; AWS needs the bucket's). */
  @Matches(/^[a-z0-9-]+$/, { message: 'must be a code like us-east-1' }) region: string = 'us-east-1';
  /** `http://endpoint/bucket/key` instead of `http://bucket.endpoint/key`: what MinIO and most S3-compatible servers need. */
  @IsBoolean() force_path_style: boolean = false;
  /** Longest a connection, or a request without progress, may take before it fails and is retried, ms. */
  @IsInt() @Min(100) @Max(300_000) request_timeout_ms: number = 10_000;
  /** Attempts per request, the first included, with backoff between them. */
  @IsInt() @Min(1) @Max(10) max_attempts: number = 3;
}

/**
 * `npm run cli -- sql` (`POST /internal/admin/sql`): one statement on chDB
 * with the engine in read-only mode, bounded by the engine itself.
 */
export class OperatorSqlConfig {
  /** More result rows than this fail the statement (the engine's `max_result_rows`, overflow mode `throw`). */
  @IsInt() @Min(1) @Max(1_000_000) max_result_rows: number = 10_000;
  /** Longest the statement may run (the engine's `max_execution_time`); then 504 QUERY_TIMEOUT. */
  @IsInt() @Min(1) @Max(600_000) max_execution_ms: number = 30_000;
}

export class EventLogFileConfig {
  /** Partitions per topic of the file event log. */
  @IsInt() @Min(1) @Max(256) partitions: number = 4;
  /**
   * Hours; 0 keeps events forever (the log is the source of truth). Otherwise
   * older bot requests are deleted from the log; the other topics are state of
   * record and always kept.
   */
  @IsInt() @Min(0) retention_hours: number = 0;
}

export class ListenConfig {
  /** Address every app binds: exactly the one address it resolves to first (`localhost`: one of 127.0.0.1 or ::1). */
  @IsString() @IsNotEmpty() host: string = '127.0.0.1';
  /** Port of the public API; 0 picks a free one (for every port here). */
  @IsInt() @Min(0) @Max(65535) public_api: number = 3000;
  /** Port of the daemon API. */
  @IsInt() @Min(0) @Max(65535) daemon: number = 3001;
  /** Port of the edge (bot-facing serving). */
  @IsInt() @Min(0) @Max(65535) edge: number = 3002;
  /** Port of the projector (health and metrics only). */
  @IsInt() @Min(0) @Max(65535) projector: number = 3003;
}

/** The generated demo site (docs/demo-site.md): a site to try the service on, without one of your own or the internet. */
export class DemoSiteConfig {
  /** The host whose pages it is: the standalone process serves it at that host's `origin`, which must be `http://127.0.0.1:<port>`. */
  @IsInt() @Min(1) host_id!: number;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export class LoggingConfig {
  /** Lowest level logged (pino; JSON lines on stdout). */
  @IsIn(LOG_LEVELS) level: (typeof LOG_LEVELS)[number] = 'info';
}

export const ENVELOPE_FORMS = ['success', 'status'] as const;
export type EnvelopeForm = (typeof ENVELOPE_FORMS)[number];

export class DaemonConfig {
  /** Daemon identifier in `/status`; absent = `<hostname>-<pid>`. */
  @IsOptional() @IsString() @IsNotEmpty() id?: string;
  /**
   * Success envelope of the internal API: `success` = `{success: true, data}`
   * (later form, default), `status` = `{status: "ok", data}` (earlier form).
   */
  @IsIn(ENVELOPE_FORMS) envelope: EnvelopeForm = 'success';
}

/** How the edge checks that a bot is who its User-Agent says (docs/bots.md, "Verified bots"). */
export class BotVerificationConfig {
  /**
   * Directory of the operators' published range files and their
   * `sources.json` (what `npm run bots:update-ranges` writes); absent = the
   * set that ships with the code (`libs/ports/bot-verification/src/ranges`,
   * its date in the edge's startup log). A set that leaves an operator's
   * crawlers unverifiable stops startup.
   */
  @IsOptional() @IsString() @IsNotEmpty() ranges_dir?: string;
  /** DNS servers for reverse-DNS checks, `host` or `host:port`; absent = the system's. */
  @IsOptional() @IsArray() @IsString({ each: true }) @Matches(/^[^\s]+$/, { each: true, message: 'each server must be host or host:port' }) dns_servers?: string[];
  /** One DNS query's timeout (2 tries each); a check gives up (`unknown`) after 2 s in all. */
  @IsInt() @Min(50) @Max(10_000) dns_timeout_ms: number = 1_000;
}

/** The edge's robots.txt reader (docs/edge.md, "robots.txt"). */
export class EdgeRobotsTxtConfig {
  /** `false`: robots.txt is never fetched and every bot request is recorded `robotsAllowed: unknown`. */
  @IsBoolean() enabled: boolean = true;
  /** Minutes a host's robots.txt is used before it is fetched again (when a bot next asks for one of its pages). */
  @IsInt() @Min(1) @Max(10_080) refresh_minutes: number = 60;
}

/** The bot edge: online render bound and the request-recording buffer. */
export class EdgeConfig {
  /** Longest a bot waits for a render on a miss before it gets 504. */
  @IsInt() @Min(100) @Max(120_000) render_timeout_ms: number = 20_000;
  /** Bot requests held for the event log at most; beyond it the oldest are dropped (counted and logged). */
  @IsInt() @Min(1) @Max(10_000_000) record_buffer_max: number = 100_000;
  /** Events per sealed batch; a flush hands up to 16 batches to the log in one append (on Kafka, at most 1,000 events per produce request). */
  @IsInt() @Min(1) @Max(100_000) record_batch_max: number = 1_000;
  /** How often the buffer is flushed. */
  @IsInt() @Min(1) @Max(60_000) record_flush_ms: number = 200;
  /**
   * `false` serves bots without recording them (no `BotRequestRecorded`
   * events, nothing in the events explorer); for measuring what recording
   * costs, or an operator's emergency switch. Default `true`.
   */
  @IsBoolean() record_requests: boolean = true;
  /**
   * No effect: recording has no worker thread of its own any more. Accepted
   * (and ignored) so that configurations written for earlier versions still load.
   */
  @IsOptional() @IsBoolean() record_worker_idle?: boolean;
  /**
   * Standalone mode (the explorer projector in the edge's process): while
   * serving is saturated (no idle CPU, the serving loop busy), the explorer
   * projection pauses for up to this long, then catches up before it may
   * pause again; bots get the CPU, the explorer lags at most this long plus
   * its catch-up. 0 never pauses. No effect where the projector runs apart.
   */
  @IsInt() @Min(0) @Max(300_000) projection_pause_max_ms: number = 10_000;
  /**
   * Megabytes of Markdown for agents kept in memory (per edge process): each
   * stored render is converted once, on its first Markdown request, and kept
   * (with its gzipped form) until evicted, least recently used first.
   */
  // At least 8: the largest Markdown (1,000,000 characters, up to 4 MB of UTF-8) and its gzipped form must fit, or it would be converted on every request.
  @IsInt() @Min(8) @Max(4096) markdown_cache_mb: number = 32;
  /** Megabytes of page bodies kept in memory (per edge process, raw + gzipped), least recently used evicted first; a body over an eighth of it is not kept whole. Hits on kept bodies need no read of the object store. */
  @IsInt() @Min(1) @Max(65_536) body_cache_mb: number = 64;
  /** A website's `llms.txt` is generated again from the cache at most this often (seconds, per host and edge process). */
  @IsInt() @Min(1) @Max(86_400) llms_txt_refresh_s: number = 60;
  /**
   * Proxies (CIDR) whose `X-Forwarded-For` the edge believes: the servers of
   * the websites' middleware (nginx, `prerender-node`'s) and any load
   * balancer in front of the edge. The bot's address is the rightmost entry
   * that is not one of them, read only when the request's peer is one of
   * them; empty = no bot address (verification answers `unknown`).
   */
  @IsArray() @ValidateBy({ name: 'isCidr', validator: { validate: (value) => typeof value === 'string' && ipaddr.isValidCIDR(value), defaultMessage: () => 'each range must be a CIDR range such as 203.0.113.0/24 or 2001:db8::/32' } }, { each: true })
  trusted_proxies: string[] = [];
  /** Checking bots' claims (published ranges, reverse DNS). */
  @ValidateNested() @Type(() => BotVerificationConfig) bot_verification: BotVerificationConfig = new BotVerificationConfig();
  /** Reading the websites' robots.txt, to record whether each bot was allowed the URL it asked for. */
  @ValidateNested() @Type(() => EdgeRobotsTxtConfig) robots_txt: EdgeRobotsTxtConfig = new EdgeRobotsTxtConfig();
}

/** CSV exports of the public API (download links and retention). */
export class ExportsConfig {
  /** Hours a finished export file (and its record) is kept before the sweeper removes it. */
  @IsInt() @Min(1) @Max(720) retention_hours: number = 24;
  /** Seconds a minted download link stays valid; never beyond the file's retention. */
  @IsInt() @Min(10) @Max(604_800) link_ttl_seconds: number = 3600;
  /**
   * Where clients reach the public API (`https://api.example.com`, optionally
   * with a path prefix), the base of every `downloadUrl`. Absent, links name
   * the address the public API listens on (`http://<listen.host>:<port>`,
   * `0.0.0.0` as `127.0.0.1`): set it whenever clients reach the API by
   * another name. Never taken from request headers.
   */
  @IsOptional() @Matches(/^https?:\/\/[^/\s]+(\/\S*[^/\s])?$/, { message: 'must be an http(s) URL without a trailing slash' }) public_base_url?: string;
  /**
   * HMAC-SHA256 key of download links (32+ characters). Required with the
   * Kafka event log (replicas must share it); absent in standalone mode, a
   * random key is made once and kept in the data directory.
   */
  @IsOptional() @IsString() @Matches(/^.{32,}$/s, { message: 'must be at least 32 characters' }) signing_key?: string;
  /** With an object store that presigns URLs (S3): a download link answers 302 to a presigned URL (at most 15 minutes) instead of streaming the file through the public API. */
  @IsBoolean() download_redirect: boolean = false;
}

/** The dashboard's sign-in (docs/public-api.md, "Dashboard sessions"). */
export class DashboardConfig {
  /** Hours a dashboard session lasts from sign-in (never beyond the expiry of the token it was opened with). */
  @IsInt() @Min(1) @Max(720) session_ttl_hours: number = 12;
  /** Minutes a one-time sign-in link (`npm run cli -- dashboard link`) stays usable. */
  @IsInt() @Min(1) @Max(1440) link_ttl_minutes: number = 15;
  /**
   * Where websites' middleware reaches the edge (`https://edge.example.com`),
   * shown as each website's `edgeUrl`. Absent, the address the edge listens
   * on (`http://<listen.host>:<listen.edge>`, `0.0.0.0` as `127.0.0.1`).
   */
  @IsOptional() @Matches(/^https?:\/\/[^/\s]+(\/\S*[^/\s])?$/, { message: 'must be an http(s) URL without a trailing slash' }) public_edge_url?: string;
}

/** Data Explorer queries of the public API. */
export class ExplorerConfig {
  /**
   * Time budget of one Data Explorer query, counted from its arrival, the
   * wait for the engine included: a statement still waiting then is refused
   * (503 EXPLORER_BUSY), one running is stopped by the engine (504
   * QUERY_TIMEOUT). Keeps a query over a huge window from holding the
   * engine's threads (in standalone mode, this process's) for minutes.
   */
  @IsInt() @Min(1) @Max(600_000) query_timeout_ms: number = 30_000;
  /**
   * Data Explorer statements (a query's count, page and companions; an
   * export) the engine runs at once for this process; more wait their turn,
   * accounts served in turn. An account takes the last free one only when it
   * has none running, so another account's statement starts at once.
   */
  @IsInt() @Min(1) @Max(256) max_concurrent_statements: number = 3;
  /**
   * Statements one account may have waiting or running in this process; one
   * more is refused (503 EXPLORER_BUSY with Retry-After). At least 2: a query
   * runs its count and its page side by side.
   */
  @IsInt() @Min(2) @Max(100_000) account_max_statements: number = 16;
}

/** Rate limits of the public API, per API token, in fixed windows (shared through Redis in cluster mode). */
export class RateLimitConfig {
  /** `false` turns the public API's rate limits off. */
  @IsBoolean() enabled: boolean = true;
  /** Requests one token may make per window, across every `/api/` endpoint. */
  @IsInt() @Min(1) @Max(1_000_000) requests_per_window: number = 600;
  /** Window length (s); windows are aligned on the clock. */
  @IsInt() @Min(1) @Max(86_400) window_seconds: number = 60;
}

export class AppConfigSchema {
  /** Event log files, snapshots, cache bodies, exports and the edge's spill (a full disk: docs/operations-disk-full.md). */
  @IsString() @IsNotEmpty() data_dir: string = './data';
  /**
   * Key every internal API call carries in `X-Internal-Auth`. Give either the
   * key or its SHA-256 (hex); only the hash is kept in memory.
   */
  @IsOptional() @IsString() @IsNotEmpty() internal_auth_key?: string;
  /** SHA-256 (hex) of the internal key: what production configurations give instead of the key. */
  @IsOptional() @Matches(/^[0-9a-f]{64}$/, { message: 'must be 64 lower-case hex digits (SHA-256)' }) internal_auth_key_sha256?: string;
  /** Enables `POST /internal/scheduler/pause` and `/resume` (403 otherwise). */
  @IsBoolean() scheduler_control_api: boolean = false;
  /**
   * Longest a graceful shutdown may take before the process exits anyway
   * (exit 1). More than the sum of the shutdown steps' own bounds (58 s,
   * `SHUTDOWN_BOUNDS_MS` in libs/infrastructure/platform), so every step, closing the
   * adapters last, gets its turn; less is refused.
   */
  @IsInt() @Min(59_000) @Max(3_600_000) shutdown_grace_ms: number = 60_000;
  @ValidateNested() @Type(() => RecacheConfig) recache: RecacheConfig = new RecacheConfig();
  @ValidateNested() @Type(() => InternalQueueConfig) internal_queue: InternalQueueConfig = new InternalQueueConfig();
  @ValidateNested() @Type(() => SchedulerConfig) scheduler: SchedulerConfig = new SchedulerConfig();
  @ValidateNested() @Type(() => RenderServiceConfig) render_service: RenderServiceConfig = new RenderServiceConfig();
  @ValidateNested() @Type(() => DaemonConfig) daemon: DaemonConfig = new DaemonConfig();
  @ValidateNested() @Type(() => EdgeConfig) edge: EdgeConfig = new EdgeConfig();
  @ValidateNested() @Type(() => ExplorerConfig) explorer: ExplorerConfig = new ExplorerConfig();
  @ValidateNested() @Type(() => ExportsConfig) exports: ExportsConfig = new ExportsConfig();
  @ValidateNested() @Type(() => RateLimitConfig) rate_limit: RateLimitConfig = new RateLimitConfig();
  @ValidateNested() @Type(() => DashboardConfig) dashboard: DashboardConfig = new DashboardConfig();
  @ValidateNested() @Type(() => AdaptersConfig) adapters: AdaptersConfig = new AdaptersConfig();
  @ValidateNested() @Type(() => EventLogFileConfig) event_log_file: EventLogFileConfig = new EventLogFileConfig();
  @IsOptional() @ValidateNested() @Type(() => KafkaConfig) kafka?: KafkaConfig;
  @IsOptional() @ValidateNested() @Type(() => RedisConfig) redis?: RedisConfig;
  @IsOptional() @ValidateNested() @Type(() => ClickhouseConfig) clickhouse?: ClickhouseConfig;
  @IsOptional() @ValidateNested() @Type(() => S3Config) s3?: S3Config;
  @ValidateNested() @Type(() => OperatorSqlConfig) operator_sql: OperatorSqlConfig = new OperatorSqlConfig();
  @ValidateNested() @Type(() => ListenConfig) listen: ListenConfig = new ListenConfig();
  @ValidateNested() @Type(() => LoggingConfig) logging: LoggingConfig = new LoggingConfig();
  /** Serves the generated demo site in the standalone process (the demo configuration only); absent, none. */
  @IsOptional() @ValidateNested() @Type(() => DemoSiteConfig) demo_site?: DemoSiteConfig;
  /** The sites whose pages are cached: hostnames, origin, cache dimensions, URL rules. */
  @IsArray() @ArrayMinSize(1) @ValidateNested({ each: true }) @Type(() => HostConfig) hosts!: HostConfig[];
  /** The websites of the public API and the edge, each on one host of one account. */
  @IsArray() @ValidateNested({ each: true }) @Type(() => WebsiteConfig) websites: WebsiteConfig[] = [];
  /** Per-account settings; an account not listed gets the defaults. */
  @IsArray() @ValidateNested({ each: true }) @Type(() => AccountConfig) accounts: AccountConfig[] = [];
}

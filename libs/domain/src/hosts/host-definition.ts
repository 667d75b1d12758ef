/**
 * A configured host as the domain sees it (the configuration's shape, so the
 * validated config passes straight in).
 */
export interface DimensionDefinition {
  readonly id: number;
  readonly name: string;
  readonly match: { readonly user_agent?: string; readonly fallback: boolean };
  readonly action: 'render' | 'bypass';
}

export interface UrlRuleDefinition {
  readonly pattern: string;
  readonly action: 'render' | 'bypass' | 'ignore';
  readonly cache_ttl?: number;
}

/** When a rendered page of the host is done; absent = the defaults (`DEFAULT_SETTLE_RULES` of the renderer). */
export interface HostRenderDefinition {
  readonly quiet_ms: number;
  readonly long_request_ms: number;
  readonly prerender_ready: boolean;
}

export interface HostDefinition {
  readonly host_id: number;
  readonly hostnames: readonly string[];
  readonly origin?: string;
  readonly dimensions: readonly DimensionDefinition[];
  readonly url_rules: readonly UrlRuleDefinition[];
  readonly cache_ttl: number;
  readonly render?: HostRenderDefinition;
}

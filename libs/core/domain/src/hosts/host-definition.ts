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

/** Last-good protection of the host's pages; absent = the defaults (`DEFAULT_LAST_GOOD_RULES` of the renderer). */
export interface HostLastGoodDefinition {
  readonly enabled: boolean;
  readonly min_size_ratio: number;
  readonly soft_404_size_floor_bytes: number;
  readonly soft_404_title_pattern: string;
}

export interface HostDefinition {
  readonly host_id: number;
  readonly hostnames: readonly string[];
  readonly origin?: string;
  readonly dimensions: readonly DimensionDefinition[];
  readonly url_rules: readonly UrlRuleDefinition[];
  readonly cache_ttl: number;
  readonly render?: HostRenderDefinition;
  readonly last_good?: HostLastGoodDefinition;
}

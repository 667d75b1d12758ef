import type { DimensionDefinition, HostDefinition, UrlRuleDefinition } from './host-definition';

/** Read-only lookups over the configured hosts, built once from configuration. */
export class HostCatalog {
  private readonly byId: ReadonlyMap<number, CompiledHost>;
  private readonly byHostname: ReadonlyMap<string, CompiledHost>;

  constructor(hosts: readonly HostDefinition[]) {
    const compiled = hosts.map(compileHost);
    this.byId = new Map(compiled.map((h) => [h.definition.host_id, h]));
    this.byHostname = new Map(compiled.flatMap((h) => h.definition.hostnames.map((n) => [n.toLowerCase(), h] as const)));
  }

  host(hostId: number): HostDefinition | undefined {
    return this.byId.get(hostId)?.definition;
  }

  hostIds(): number[] {
    return [...this.byId.keys()];
  }

  hostForHostname(hostname: string): HostDefinition | undefined {
    return this.byHostname.get(hostname.toLowerCase())?.definition;
  }

  /** The first URL rule whose pattern matches the URL's path and query, if any. */
  urlRule(hostId: number, url: URL): UrlRuleDefinition | undefined {
    const host = this.byId.get(hostId);
    const target = `${url.pathname}${url.search}`;
    return host?.rules.find((r) => r.regex.test(target))?.rule;
  }

  /** The dimension a bot request goes to: the first whose User-Agent rule matches, else the fallback, else the first. */
  dimensionForUserAgent(hostId: number, userAgent: string): DimensionDefinition | undefined {
    const host = this.byId.get(hostId);
    if (!host) return undefined;
    const matched = host.uaRules.find((d) => d.regex.test(userAgent));
    return matched?.dimension ?? host.definition.dimensions.find((d) => d.match.fallback) ?? host.definition.dimensions[0];
  }
}

interface CompiledHost {
  readonly definition: HostDefinition;
  readonly rules: readonly { rule: UrlRuleDefinition; regex: RegExp }[];
  readonly uaRules: readonly { dimension: DimensionDefinition; regex: RegExp }[];
}

function compileHost(definition: HostDefinition): CompiledHost {
  return {
    definition,
    rules: definition.url_rules.map((rule) => ({ rule, regex: new RegExp(rule.pattern) })),
    uaRules: definition.dimensions
      .filter((d) => d.match.user_agent)
      .map((dimension) => ({ dimension, regex: new RegExp(dimension.match.user_agent!, 'i') })),
  };
}

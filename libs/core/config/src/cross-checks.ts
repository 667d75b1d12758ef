import type { AppConfigSchema } from './config.schema';
import type { ConfigIssue } from './config-error';

/** Rules that span several keys; field-level rules live on the schema. */
export function crossCheck(config: AppConfigSchema): ConfigIssue[] {
  return [...checkHosts(config), ...checkWebsites(config), ...checkAccounts(config), ...checkAdapters(config), ...checkAuth(config), ...checkListen(config), ...checkLinkSigning(config), ...checkDemoSite(config)];
}

function duplicates<T>(values: readonly T[]): T[] {
  const seen = new Set<T>();
  return [...new Set(values.filter((v) => (seen.has(v) ? true : (seen.add(v), false))))];
}

function regexIssue(key: string, pattern: string, flags = ''): ConfigIssue[] {
  try {
    new RegExp(pattern, flags);
    return [];
  } catch (error) {
    return [{ key, reason: `not a valid regular expression: ${(error as Error).message}` }];
  }
}

function checkHosts(config: AppConfigSchema): ConfigIssue[] {
  const issues: ConfigIssue[] = duplicates(config.hosts.map((h) => h.host_id)).map((id) => ({ key: 'hosts', reason: `host_id ${id} is used twice` }));
  issues.push(
    ...duplicates(config.hosts.flatMap((h) => h.hostnames.map((n) => n.toLowerCase()))).map((n) => ({
      key: 'hosts',
      reason: `hostname ${n} belongs to two hosts`,
    })),
  );
  config.hosts.forEach((host, h) => {
    const at = `hosts[${h}]`;
    issues.push(...duplicates(host.dimensions.map((d) => d.id)).map((id) => ({ key: `${at}.dimensions`, reason: `dimension id ${id} is used twice` })));
    issues.push(...duplicates(host.dimensions.map((d) => d.name)).map((n) => ({ key: `${at}.dimensions`, reason: `dimension name ${n} is used twice` })));
    if (host.dimensions.filter((d) => d.match.fallback).length > 1) {
      issues.push({ key: `${at}.dimensions`, reason: 'at most one dimension may be the fallback' });
    }
    host.dimensions.forEach((d, i) => d.match.user_agent && issues.push(...regexIssue(`${at}.dimensions[${i}].match.user_agent`, d.match.user_agent, 'i')));
    host.url_rules.forEach((r, i) => issues.push(...regexIssue(`${at}.url_rules[${i}].pattern`, r.pattern)));
    issues.push(...regexIssue(`${at}.last_good.soft_404_title_pattern`, host.last_good.soft_404_title_pattern, 'i'));
  });
  return issues;
}

function checkWebsites(config: AppConfigSchema): ConfigIssue[] {
  const hostIds = new Set(config.hosts.map((h) => h.host_id));
  const issues: ConfigIssue[] = duplicates(config.websites.map((w) => w.id)).map((id) => ({ key: 'websites', reason: `website ${id} is defined twice` }));
  // The edge finds the website by its token: with two websites sharing one, the first in the config would take the other's bot requests.
  const tokens = config.websites.flatMap((w) => (w.prerender_token_sha256 ? [w.prerender_token_sha256] : []));
  if (duplicates(tokens).length > 0) issues.push({ key: 'websites', reason: 'two websites have the same prerender_token_sha256 (each website needs its own token)' });
  config.websites.forEach((w, i) => {
    if (!hostIds.has(w.host_id)) issues.push({ key: `websites[${i}].host_id`, reason: `no host with host_id ${w.host_id}` });
    const host = config.hosts.find((h) => h.host_id === w.host_id);
    if (host) issues.push(...checkWebsiteSitemaps(w.sitemaps, host, `websites[${i}].sitemaps`));
    issues.push(...checkAlerts(w, `websites[${i}].alerts`));
  });
  return issues;
}

function checkAccounts(config: AppConfigSchema): ConfigIssue[] {
  const issues: ConfigIssue[] = duplicates(config.accounts.map((a) => a.id)).map((id) => ({ key: 'accounts', reason: `account ${id} is listed twice` }));
  config.accounts.forEach((account, i) => {
    const { per_page_max: max = 500, per_page_default: perPage = Math.min(100, max) } = account.limits;
    if (perPage > max) issues.push({ key: `accounts[${i}].limits.per_page_default`, reason: `must not exceed per_page_max (${max})` });
  });
  return issues;
}

function checkAdapters(config: AppConfigSchema): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  if (config.adapters.event_log === 'kafka' && !config.kafka) issues.push({ key: 'kafka', reason: 'required when adapters.event_log is kafka' });
  if (config.adapters.queue_store === 'redis' && !config.redis) issues.push({ key: 'redis', reason: 'required when adapters.queue_store is redis' });
  if (config.adapters.explorer_store === 'clickhouse' && !config.clickhouse) {
    issues.push({ key: 'clickhouse', reason: 'required when adapters.explorer_store is clickhouse' });
  }
  if (config.adapters.object_store === 's3' && !config.s3) issues.push({ key: 's3', reason: 'required when adapters.object_store is s3 (at least s3.bucket)' });
  return issues;
}

function checkAuth(config: AppConfigSchema): ConfigIssue[] {
  const given = [config.internal_auth_key, config.internal_auth_key_sha256].filter((v) => v !== undefined).length;
  if (given === 1) return [];
  return [{ key: 'internal_auth_key', reason: given === 0 ? 'required (or internal_auth_key_sha256)' : 'give internal_auth_key or internal_auth_key_sha256, not both' }];
}

/** Public-api replicas on Kafka check each other's download links: they need one key, and nothing else they share is secret enough. */
function checkLinkSigning(config: AppConfigSchema): ConfigIssue[] {
  if (config.adapters.event_log !== 'kafka' || config.exports.signing_key !== undefined) return [];
  return [{ key: 'exports.signing_key', reason: 'required with event_log kafka (replicas sign and check download links with it): 32 or more random characters' }];
}

function checkListen(config: AppConfigSchema): ConfigIssue[] {
  const { public_api, daemon, edge, projector } = config.listen;
  return duplicates([public_api, daemon, edge, projector].filter((p) => p !== 0)).map((p) => ({ key: 'listen', reason: `port ${p} is used by two apps` }));
}

/** The demo site listens where its host's origin says: a fixed loopback port (the one address the renderer may reach there), free of the apps. */
function checkDemoSite(config: AppConfigSchema): ConfigIssue[] {
  if (!config.demo_site) return [];
  const host = config.hosts.find((h) => h.host_id === config.demo_site!.host_id);
  if (!host) return [{ key: 'demo_site.host_id', reason: `no host with host_id ${config.demo_site.host_id}` }];
  const port = demoSitePort(host.origin);
  if (port === undefined) return [{ key: 'demo_site.host_id', reason: `host ${host.host_id} needs an origin of the form http://127.0.0.1:<port> for the demo site to listen on` }];
  const { public_api, daemon, edge, projector } = config.listen;
  return [public_api, daemon, edge, projector].includes(port) ? [{ key: 'demo_site.host_id', reason: `port ${port} of host ${host.host_id}'s origin is an app's port` }] : [];
}

/** The port of an `http://127.0.0.1:<port>` origin; undefined for any other origin. */
export function demoSitePort(origin: string | undefined): number | undefined {
  const match = /^http:\/\/127\.0\.0\.1:(\d{1,5})$/.exec(origin ?? '');
  const port = Number(match?.[1]);
  return port >= 1 && port <= 65535 ? port : undefined;
}

/** A warm-up sitemap is read under the same rule as the API's: on one of the host's hostnames, or its configured origin; listed once. */
function checkWebsiteSitemaps(sitemaps: readonly { url: string }[], host: { hostnames: readonly string[]; origin?: string }, at: string): ConfigIssue[] {
  const issues: ConfigIssue[] = duplicates(sitemaps.map((s) => s.url)).map((url) => ({ key: at, reason: `sitemap ${url} is listed twice` }));
  sitemaps.forEach((sitemap, i) => {
    let url: URL;
    try {
      url = new URL(sitemap.url);
    } catch {
      return;
    }
    const onHost = host.hostnames.some((name) => name.toLowerCase() === url.hostname) || (host.origin !== undefined && new URL(host.origin).origin === url.origin);
    if (!onHost) issues.push({ key: `${at}[${i}].url`, reason: `not on the website's hostnames (${host.hostnames.join(', ')}) or its host's origin` });
  });
  return issues;
}

/** The signing key is given one way; whether the target is internal, and whether `secret_env` is set, is checked at startup (checkAlertTargets in libs/features/alerts): it takes DNS and the environment. */
function checkAlerts(website: AppConfigSchema['websites'][number], at: string): ConfigIssue[] {
  const alerts = website.alerts;
  if (!alerts) return [];
  const given = [alerts.secret, alerts.secret_env].filter((v) => v !== undefined).length;
  if (given === 1) return [];
  return [{ key: `${at}.secret_env`, reason: given === 0 ? 'required (or secret, for local development): the key that signs the webhook bodies' : 'give secret_env or secret, not both' }];
}

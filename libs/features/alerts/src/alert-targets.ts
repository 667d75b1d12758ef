import { AppConfig, ConfigError, ConfigIssue, WebsiteAlertsConfig } from '@bpc/config';
import type { CriticalPagesUpRule, NoindexAppearedRule, PageErrorRule, RenderFailureRule } from '@bpc/domain';
import { AddressPolicy, EgressRefused, EgressRules, resolveCheckedAddress, Resolvers, systemResolve, targetOf } from '@bpc/egress';

/** Shortest signing key taken from the environment (as `secret` in the file). */
const MIN_SECRET_LENGTH = 16;

/** One website's webhook, as the deliverer and the rules use it. */
export interface AlertTarget {
  readonly website: string;
  readonly hostId: number;
  readonly url: URL;
  readonly secret: string;
  /** Where the delivery may connect: public addresses, plus exactly the webhook's own origin when `allow_internal_target`. */
  readonly rules: EgressRules;
  readonly renderFailures?: RenderFailureRule;
  readonly pageErrors?: PageErrorRule;
  readonly noindexAppeared?: NoindexAppearedRule;
  readonly criticalPagesUp?: CriticalPagesUpRule;
  readonly exportFinished: boolean;
}

/** The websites with an alert webhook. Call `checkAlertTargets` first: a missing secret throws here. */
export function alertTargets(config: AppConfig, env: Readonly<Record<string, string | undefined>>): AlertTarget[] {
  const addresses = new AddressPolicy({ deniedRanges: config.render_service.egress_denied_ranges });
  return config.websites.flatMap((website) => {
    const alerts = website.alerts;
    if (!alerts) return [];
    const url = new URL(alerts.webhook_url);
    const secret = secretOf(alerts, env);
    if (secret === undefined) throw new Error(`websites ${website.id}: alerts secret missing (checkAlertTargets was not run)`);
    return [{
      website: website.id,
      hostId: website.host_id,
      url,
      secret,
      rules: { addresses, trustedOrigin: alerts.allow_internal_target ? new URL(url.origin) : undefined },
      renderFailures: alerts.render_failures && { threshold: alerts.render_failures.threshold, windowMinutes: alerts.render_failures.window_minutes },
      pageErrors: alerts.error_pages && { minRequests: alerts.error_pages.min_requests, windowMinutes: alerts.error_pages.window_minutes },
      noindexAppeared: alerts.noindex_appeared && { minPages: alerts.noindex_appeared.min_pages, windowMinutes: alerts.noindex_appeared.window_minutes },
      criticalPagesUp: alerts.critical_pages_up && { increasePercent: alerts.critical_pages_up.increase_percent, minPages: alerts.critical_pages_up.min_pages },
      exportFinished: alerts.export_finished,
    }];
  });
}

function secretOf(alerts: WebsiteAlertsConfig, env: Readonly<Record<string, string | undefined>>): string | undefined {
  if (alerts.secret !== undefined) return alerts.secret;
  const value = alerts.secret_env === undefined ? undefined : env[alerts.secret_env];
  return value !== undefined && value.length >= MIN_SECRET_LENGTH ? value : undefined;
}

/** Names checked as the machine resolves them (hosts file included): `localhost` or a container peer's name is as internal as its address. */
const STARTUP_RESOLVERS: Resolvers = { page: systemResolve, trusted: systemResolve };

/**
 * The startup half of the configuration check of alert webhooks (the file's
 * half is in libs/core/config cross-checks): the signing key named by
 * `secret_env` is set, and a webhook whose host is or resolves to an internal
 * address (the renderer's address rules: loopback, private, link-local …,
 * the machine's own addresses, `render_service.egress_denied_ranges`) is
 * refused unless the website sets `allow_internal_target`. A name that does
 * not resolve now is let through: deliveries check again at connect time.
 * Throws ConfigError naming each key, so startup stops as for any bad value.
 */
export async function checkAlertTargets(config: AppConfig, env: Readonly<Record<string, string | undefined>>, resolvers: Resolvers = STARTUP_RESOLVERS): Promise<void> {
  const addresses = new AddressPolicy({ deniedRanges: config.render_service.egress_denied_ranges });
  const issues = await Promise.all(
    config.websites.map(async (website, i): Promise<ConfigIssue[]> => {
      const alerts = website.alerts;
      if (!alerts) return [];
      const at = `websites[${i}].alerts`;
      const found: ConfigIssue[] = [];
      if (alerts.secret_env !== undefined && secretOf(alerts, env) === undefined) {
        found.push({ key: `${at}.secret_env`, reason: `environment variable ${alerts.secret_env} is not set or shorter than ${MIN_SECRET_LENGTH} characters` });
      }
      const refusal = alerts.allow_internal_target ? undefined : await internalTargetRefusal(new URL(alerts.webhook_url), { addresses }, resolvers);
      if (refusal) found.push({ key: `${at}.webhook_url`, reason: `${refusal}: refused (set ${at}.allow_internal_target: true to allow a receiver on an internal address)` });
      return found;
    }),
  );
  if (issues.flat().length > 0) throw new ConfigError('alert webhooks', issues.flat());
}

async function internalTargetRefusal(url: URL, rules: EgressRules, resolvers: Resolvers): Promise<string | undefined> {
  const target = targetOf(url);
  if (!target) return `scheme ${url.protocol} is not allowed`;
  try {
    await resolveCheckedAddress(target, rules, resolvers);
    return undefined;
  } catch (error) {
    return error instanceof EgressRefused ? error.message : undefined;
  }
}

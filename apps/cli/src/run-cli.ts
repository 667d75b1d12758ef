import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { DEFAULT_CONFIG_FILE, loadConfig } from '@bpc/config';
import { assertNever } from '@bpc/domain';
import { CliCommand, CliOptions, CliUsageError, parseCli, USAGE } from './cli-args';
import { renderSqlResult } from './sql-output';
import { existingSitesOf, SiteConflictError, siteSnippet, siteSnippetText } from './site-snippet';

export interface CliIo {
  readonly env: Readonly<Record<string, string | undefined>>;
  out(line: string): void;
  err(line: string): void;
}

/** Runs one CLI command against the running service; resolves with the process exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseCli(argv);
  } catch (error) {
    if (error instanceof CliUsageError) {
      io.err(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    throw error;
  }
  const { command, options } = parsed;
  if (command.kind === 'help') {
    io.out(USAGE);
    return 0;
  }
  if (command.kind === 'site-add') return addSite(command, io);
  const { url, key } = target(options, io.env);
  const call = async (method: string, route: string, body?: unknown): Promise<unknown> => {
    let response: Response;
    try {
      response = await fetch(`${url}${route}`, {
        method,
        headers: { 'x-internal-auth': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      throw new Error(`cannot reach the service at ${url} (is it running? npm start): ${(error as Error).message}`);
    }
    if (response.ok && response.headers.get('content-type')?.startsWith('text/csv')) return response.text();
    const payload = (await response.json().catch(() => ({}))) as { message?: string; field?: string };
    if (!response.ok) throw new Error(`${response.status} ${payload.message ?? ''}${payload.field ? ` (${payload.field})` : ''}`);
    return payload;
  };
  try {
    const result = await execute(command, call);
    io.out(options.json && command.kind !== 'sql' ? JSON.stringify(result, null, 2) : render(command, result));
    return 0;
  } catch (error) {
    io.err(`error: ${(error as Error).message}`);
    return 1;
  }
}

type Call = (method: string, route: string, body?: unknown) => Promise<unknown>;
/** The commands that call the running service. */
type ServiceCommand = Exclude<CliCommand, { kind: 'help' | 'site-add' }>;

/** `site add`: prints the site's configuration items and its edge token; works offline, writes nothing. */
function addSite(command: Extract<CliCommand, { kind: 'site-add' }>, io: CliIo): number {
  const file = io.env.BPC_CONFIG ?? DEFAULT_CONFIG_FILE;
  const raw = readRawConfig(io.env);
  if (!raw) io.err(`note: cannot read ${file}, so the new site is not checked against the sites it has`);
  try {
    const snippet = siteSnippet(command, existingSitesOf(raw));
    io.out(siteSnippetText(snippet, file));
    return 0;
  } catch (error) {
    if (!(error instanceof SiteConflictError)) throw error;
    io.err(`error: ${error.message} in ${file}`);
    return 1;
  }
}

function execute(command: ServiceCommand, call: Call): Promise<unknown> {
  switch (command.kind) {
    case 'tokens-issue':
      return call('POST', '/internal/admin/tokens', { user: command.user, website: command.website, role: command.role, expires: command.expires, label: command.label });
    case 'tokens-list':
      return call('GET', '/internal/admin/tokens');
    case 'tokens-revoke':
      return call('DELETE', `/internal/admin/tokens/${encodeURIComponent(command.tokenId)}`);
    case 'dashboard-link':
      return call('POST', '/internal/admin/dashboard-links', { user: command.user });
    case 'search-import':
      return call('POST', '/internal/admin/search-performance/import', searchImportBody(command));
    case 'demo-data':
      return call('POST', '/internal/admin/demo-data', { website: command.website, days: command.days, requestsPerDay: command.requestsPerDay, seed: command.seed });
    case 'sql':
      return call('POST', '/internal/admin/sql', { sql: command.sql, format: command.format === 'csv' ? 'csv' : 'json' });
    default:
      return assertNever(command);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function render(command: ServiceCommand, result: any): string {
  switch (command.kind) {
    case 'tokens-issue':
      return [
        `token ${result.tokenId} for ${result.userId} (${result.role} on ${result.websiteId}${result.expiresAt ? `, expires ${result.expiresAt}` : ''})`,
        '',
        `  ${result.token}`,
        '',
        'Shown once: store it now. Use it as  Authorization: Bearer <token>',
      ].join('\n');
    case 'tokens-list':
      if (result.tokens.length === 0) return 'no tokens';
      return result.tokens
        .map((t: { tokenId: string; userId: string; roles: Record<string, string>; expiresAt: string | null; revokedAt: string | null; label: string }) =>
          [t.tokenId, t.userId, Object.entries(t.roles).map(([w, r]) => `${w}:${r}`).join(',') || '-', t.revokedAt ? `revoked ${t.revokedAt}` : t.expiresAt ? `expires ${t.expiresAt}` : 'active', t.label].join('\t'),
        )
        .join('\n');
    case 'tokens-revoke':
      return `revoked ${result.tokenId}`;
    case 'dashboard-link':
      return [`sign-in link for ${command.user} (single use, until ${result.expiresAt}):`, '', `  ${result.url}`].join('\n');
    case 'demo-data':
      return [
        `wrote ${result.botRequests} bot requests, ${result.renders} renders, ${result.alertDeliveries} alert deliveries and ${result.searchDays} days of search performance for ${result.websiteId} (${result.from} … ${result.to}); the explorer shows them once the projector has caught up (seconds)`,
        ...(result.receipts.length > 0 ? [`recache receipts (GET /api/websites/${result.websiteId}/cache/receipts/<id>; the dashboard's Renders page links each of their renders to its receipt):`, ...result.receipts.map((id: string) => `  ${id}`)] : []),
      ].join('\n');
    case 'search-import':
      return `imported ${result.days.length} day(s) for ${result.websiteId}: ${result.days.map((d: { date: string; grain: string; rows: number }) => `${d.date} ${d.grain} (${d.rows} rows)`).join(', ')}`;
    case 'sql':
      return renderSqlResult(command.format, result);
    default:
      return assertNever(command);
  }
}

/** Where the service listens and the operator key, from flags, environment, then the configuration file. */
function target(options: CliOptions, env: CliIo['env']): { url: string; key: string } {
  let url = options.url;
  if (!url) {
    const config = loadConfig({ env });
    const host = config.listen.host === '0.0.0.0' ? '127.0.0.1' : config.listen.host;
    url = `http://${host}:${config.listen.public_api}`;
  }
  const key = options.internalKey ?? env.BPC_INTERNAL_KEY ?? env.BPC__INTERNAL_AUTH_KEY ?? plainKeyFromConfigFile(env);
  if (!key) throw new CliUsageError('no internal key: pass --internal-key or set BPC_INTERNAL_KEY (the configuration holds only its hash)');
  return { url: url.replace(/\/$/, ''), key };
}

function plainKeyFromConfigFile(env: CliIo['env']): string | undefined {
  const key = readRawConfig(env)?.internal_auth_key;
  return typeof key === 'string' ? key : undefined;
}

function configFile(env: CliIo['env']): string {
  return path.resolve(env.BPC_CONFIG ?? DEFAULT_CONFIG_FILE);
}

/** The configuration file as written, unvalidated; undefined when it cannot be read or parsed. */
function readRawConfig(env: CliIo['env']): Record<string, unknown> | undefined {
  try {
    const raw = parseYaml(readFileSync(configFile(env), 'utf8')) as unknown;
    return typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Reads the export file: CSV text as is; a JSON response (or its bare rows array) for searchanalytics_json. */
function searchImportBody(command: Extract<CliCommand, { kind: 'search-import' }>): Record<string, unknown> {
  const text = readFileSync(command.file, 'utf8');
  if (command.format !== 'searchanalytics_json') return { website: command.website, format: command.format, date: command.date, content: text };
  const parsed = JSON.parse(text) as unknown;
  const rows = Array.isArray(parsed) ? parsed : (parsed as { rows?: unknown }).rows;
  return { website: command.website, format: command.format, rows, dimensions: command.dimensions };
}

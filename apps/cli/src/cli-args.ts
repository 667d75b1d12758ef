/** What the command line asked for (pure parsing, so it can be tested without a service). */
export type CliCommand =
  | { readonly kind: 'tokens-issue'; readonly user: string; readonly website: string; readonly role: string; readonly expires?: string; readonly label?: string }
  | { readonly kind: 'tokens-list' }
  | { readonly kind: 'tokens-revoke'; readonly tokenId: string }
  | { readonly kind: 'dashboard-link'; readonly user: string }
  | { readonly kind: 'demo-data'; readonly website: string; readonly days: number; readonly requestsPerDay: number; readonly seed: number }
  | { readonly kind: 'search-import'; readonly website: string; readonly format: string; readonly file: string; readonly date?: string; readonly dimensions?: readonly string[] }
  | { readonly kind: 'sql'; readonly sql: string; readonly format: SqlOutputFormat }
  | { readonly kind: 'site-add'; readonly hostnames: readonly string[]; readonly website?: string; readonly account?: string; readonly origin?: string; readonly hostId?: number }
  | { readonly kind: 'help' };

export const SQL_OUTPUT_FORMATS = ['table', 'csv', 'json'] as const;
export type SqlOutputFormat = (typeof SQL_OUTPUT_FORMATS)[number];

export interface CliOptions {
  readonly url?: string;
  readonly internalKey?: string;
  readonly json: boolean;
}

export const USAGE = `usage: npm run cli -- <command> [options]

  tokens issue --user <id> --website <id> --role readonly|manager|admin [--expires YYYY-MM-DD|ISO] [--label <text>]
      grants the user the role on the website and prints a new API token (shown once)
  tokens list
      lists tokens (id, user, roles, expiry, revocation); never the secrets
  tokens revoke <tokenId>
      revokes a token at once
  dashboard link --user <id>
      prints a one-time dashboard sign-in link for the user (dashboard.link_ttl_minutes, default 15)
  demo-data [--website demo] [--days 120] [--per-day 1500] [--seed 42]
      writes synthetic bot traffic, the renders behind it, a few recaches with receipts (printed),
      the alerts they raised with their deliveries, and search performance through the event log
  search import --website <id> --format pages_csv|queries_csv --date YYYY-MM-DD --file <export.csv>
  search import --website <id> --format searchanalytics_json --file <response.json> [--dimensions date,page,query]
      imports a Search Console export; each imported day replaces that day
  sql "<statement>" [--format table|csv|json]
      runs one read-only statement on the explorer store (chDB): the engine refuses writes,
      DDL and setting changes, and bounds rows and time (operator_sql); INTO OUTFILE, SYSTEM,
      BACKUP, KILL, USE and file() are refused before it runs; see docs/analysts.md
  site add --host <hostname>[,<hostname>…] [--website <id>] [--account <id>] [--origin https://…] [--host-id <n>]
      prints a new edge token (shown once) and the configuration items for the site, with the
      token's SHA-256; writes no file and needs no running service

global options:
  --url <public API base URL>   default: from the configuration (listen.host, listen.public_api)
  --internal-key <key>          default: $BPC_INTERNAL_KEY, then internal_auth_key of the configuration
  --json                        print JSON

Every command but site add needs the service running (npm start): the CLI calls its admin endpoints.`;

export class CliUsageError extends Error {}

export function parseCli(argv: readonly string[]): { command: CliCommand; options: CliOptions } {
  const positional: string[] = [];
  const flags = new Map<string, string>();
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--json') json = true;
    else if (arg === '--help' || arg === '-h') return { command: { kind: 'help' }, options: { json } };
    else if (arg.startsWith('--')) {
      const [name, inline] = arg.slice(2).split('=', 2);
      const value = inline ?? argv[++i];
      if (value === undefined) throw new CliUsageError(`--${name} needs a value`);
      flags.set(name, value);
    } else positional.push(arg);
  }
  const options: CliOptions = { url: flags.get('url'), internalKey: flags.get('internal-key'), json };
  const take = (name: string) => {
    const value = flags.get(name);
    flags.delete(name);
    return value;
  };
  take('url');
  take('internal-key');
  const required = (name: string) => {
    const value = take(name);
    if (value === undefined) throw new CliUsageError(`--${name} is required`);
    return value;
  };
  const integer = (name: string, fallback: number) => {
    const value = take(name);
    if (value === undefined) return fallback;
    if (!/^\d+$/.test(value)) throw new CliUsageError(`--${name} must be a whole number`);
    return Number(value);
  };
  let command: CliCommand;
  const [first, second, third] = positional;
  if (first === 'tokens' && second === 'issue') {
    command = { kind: 'tokens-issue', user: required('user'), website: required('website'), role: required('role'), expires: take('expires'), label: take('label') };
  } else if (first === 'tokens' && second === 'list') command = { kind: 'tokens-list' };
  else if (first === 'tokens' && second === 'revoke') {
    if (!third) throw new CliUsageError('tokens revoke needs a token id');
    command = { kind: 'tokens-revoke', tokenId: third };
  } else if (first === 'dashboard' && second === 'link') command = { kind: 'dashboard-link', user: required('user') };
  else if (first === 'demo-data') {
    command = { kind: 'demo-data', website: take('website') ?? 'demo', days: integer('days', 120), requestsPerDay: integer('per-day', 1500), seed: integer('seed', 42) };
  } else if (first === 'search' && second === 'import') {
    const dimensions = take('dimensions');
    command = { kind: 'search-import', website: required('website'), format: required('format'), file: required('file'), date: take('date'), dimensions: dimensions?.split(',').map((d) => d.trim()) };
  } else if (first === 'sql') {
    const sql = positional.slice(1).join(' ').trim();
    if (!sql) throw new CliUsageError('sql needs a statement, e.g. sql "SELECT count() FROM analyst_bot_requests"');
    const format = take('format') ?? (json ? 'json' : 'table');
    if (!(SQL_OUTPUT_FORMATS as readonly string[]).includes(format)) throw new CliUsageError(`--format must be one of ${SQL_OUTPUT_FORMATS.join(', ')}`);
    command = { kind: 'sql', sql, format: format as SqlOutputFormat };
  } else if (first === 'site' && second === 'add') {
    const hostId = take('host-id');
    if (hostId !== undefined && !/^[1-9]\d*$/.test(hostId)) throw new CliUsageError('--host-id must be a whole number from 1');
    command = {
      kind: 'site-add',
      hostnames: required('host').split(',').map((name) => name.trim()).filter(Boolean),
      website: take('website'),
      account: take('account'),
      origin: take('origin'),
      hostId: hostId === undefined ? undefined : Number(hostId),
    };
  } else if (first === undefined || first === 'help') command = { kind: 'help' };
  else throw new CliUsageError(`unknown command ${positional.join(' ')}`);
  if (flags.size > 0) throw new CliUsageError(`unknown option --${[...flags.keys()][0]}`);
  return { command, options };
}

import type { PublicApiClient } from './api-client';

/** Resource templates: per website, the explorer catalog (discovery, JSON) and a column/filter reference (Markdown). */
export const CATALOG_TEMPLATE = 'bpc://websites/{website}/explorers';
export const REFERENCE_TEMPLATE = 'bpc://websites/{website}/explorers/reference';

const CATALOG = /^bpc:\/\/websites\/([^/]+)\/explorers$/;
const REFERENCE = /^bpc:\/\/websites\/([^/]+)\/explorers\/reference$/;

export const RESOURCE_TEMPLATES = [
  {
    uriTemplate: CATALOG_TEMPLATE,
    name: 'explorer-catalog',
    title: 'Data Explorer catalog',
    description: "The website's Data Explorer discovery document: explorers, modes, columns, filters, periods and the account's limits (JSON).",
    mimeType: 'application/json',
  },
  {
    uriTemplate: REFERENCE_TEMPLATE,
    name: 'explorer-reference',
    title: 'Column and filter reference',
    description: 'Per explorer and mode: every column (type, sortable) and filter (type, operators, options), with defaults (Markdown).',
    mimeType: 'text/markdown',
  },
];

interface DiscoveryColumn {
  key: string;
  title: string;
  dataType: string;
  sortable: boolean;
}
interface DiscoveryFilter {
  field: string;
  title: string;
  type: string;
  operators: string[];
  valuelessOperators: string[];
  options?: { value: string }[];
}
interface DiscoveryMode {
  key: string;
  default: boolean;
  columns: DiscoveryColumn[];
  filters: DiscoveryFilter[];
  defaults: { columns: string[]; sort: string; sortDir: string; period: string };
}
interface Discovery {
  explorers: { key: string; modes: DiscoveryMode[]; periods: { presets: string[]; customFormat: string; maxRangeDays: number } }[];
  limits: Record<string, number>;
}

/** The discovery document as a reference a model reads in one pass. */
export function referenceMarkdown(website: string, discovery: Discovery): string {
  const lines = [`# Data Explorer reference: ${website}`, '', `Limits: ${Object.entries(discovery.limits).map(([k, v]) => `${k} ${v}`).join(', ')}.`];
  for (const explorer of discovery.explorers) {
    lines.push('', `## ${explorer.key}`, '', `Periods: ${explorer.periods.presets.join(', ')} or ${explorer.periods.customFormat}, at most ${explorer.periods.maxRangeDays} days.`);
    for (const mode of explorer.modes) {
      lines.push('', `### mode \`${mode.key}\`${mode.default ? ' (default)' : ''}`, '', `Defaults: columns ${mode.defaults.columns.join(', ')}; sort ${mode.defaults.sort} ${mode.defaults.sortDir}; period ${mode.defaults.period}.`, '', '| column | title | type | sortable |', '|---|---|---|---|');
      for (const c of mode.columns) lines.push(`| ${c.key} | ${c.title} | ${c.dataType} | ${c.sortable ? 'yes' : 'no'} |`);
      lines.push('', '| filter | title | type | operators | options |', '|---|---|---|---|---|');
      for (const f of mode.filters) lines.push(`| ${f.field} | ${f.title} | ${f.type} | ${f.operators.join(', ')} | ${f.options?.map((o) => o.value).join(', ') ?? ''} |`);
    }
  }
  return lines.join('\n');
}

export class ResourceRefusal extends Error {}

/** The resources of the token's websites that have the Data Explorer. */
export async function listResources(api: PublicApiClient) {
  const answer = await api({ method: 'GET', path: '/api/websites' });
  if (answer.status !== 200) throw new ResourceRefusal(`GET /api/websites: ${JSON.stringify(answer.body)}`);
  const websites = ((answer.body as { websites?: { id: string; platformModule: boolean }[] }).websites ?? []).filter((w) => w.platformModule);
  return websites.flatMap((w) => [
    { uri: CATALOG_TEMPLATE.replace('{website}', encodeURIComponent(w.id)), name: `${w.id}-explorer-catalog`, title: `${w.id}: Data Explorer catalog`, mimeType: 'application/json' },
    { uri: REFERENCE_TEMPLATE.replace('{website}', encodeURIComponent(w.id)), name: `${w.id}-explorer-reference`, title: `${w.id}: column and filter reference`, mimeType: 'text/markdown' },
  ]);
}

/** The website id of a resource URI: percent-decoded; a malformed escape or a dot segment is refused, not thrown. */
function websiteOf(segment: string, uri: string): string {
  let website: string;
  try {
    website = decodeURIComponent(segment);
  } catch {
    throw new ResourceRefusal(`VALIDATION_FAILED: resource ${uri} holds a malformed website id`);
  }
  if (website === '.' || website === '..') throw new ResourceRefusal(`VALIDATION_FAILED: resource ${uri} holds no website id`);
  return website;
}

/** Reads one resource through the discovery endpoint (the API decides whether the token may see the website). */
export async function readResource(api: PublicApiClient, uri: string) {
  const catalog = CATALOG.exec(uri);
  const reference = REFERENCE.exec(uri);
  const match = catalog ?? reference;
  if (!match) throw new ResourceRefusal(`unknown resource ${uri}: the connector serves ${CATALOG_TEMPLATE} and ${REFERENCE_TEMPLATE}`);
  const website = websiteOf(match[1], uri);
  const answer = await api({ method: 'GET', path: `/api/websites/${encodeURIComponent(website)}/data-explorer` });
  if (answer.status !== 200) {
    const body = answer.body as { code?: string; message?: string };
    throw new ResourceRefusal(`${body.code ?? answer.status}: ${body.message ?? 'refused'}`);
  }
  const text = catalog ? JSON.stringify(answer.body) : referenceMarkdown(website, answer.body as Discovery);
  return { contents: [{ uri, mimeType: catalog ? 'application/json' : 'text/markdown', text }] };
}

import { COMP_CATEGORIES, DEFAULT_COMP_CATEGORY, EXPLORER_CATALOG, EXPLORER_KEYS, ExplorerDef, MODE_KEYS } from '@bpc/explorer';
import type { JsonSchema } from './openapi-schemas';

/**
 * What a model needs to write a Data Explorer query right the first time,
 * taken from the explorer catalog the API validates with (so it cannot drift):
 * the explorer and mode keys, each explorer's period presets and filter
 * fields. The API's DTO descriptions stay terse ("Preset (`24h`, `7d` …)");
 * a model reads nothing else before its first call.
 */
const list = (values: readonly string[]) => values.map((v) => `\`${v}\``).join(', ');

const modesOf = (explorer: ExplorerDef) => explorer.modes.map((m) => `\`${m.key}\`${m.default ? ' (default)' : ''}`).join(', ');

const filtersOf = (explorer: ExplorerDef) =>
  explorer.filters.map((f) => `\`${f.field}\` (${f.type}${f.options ? `: ${f.options.map((o) => o.value).join('/')}` : ''}; ${f.operators.join(' ')})`).join(', ');

export const EXPLORER_KEY_SCHEMA: JsonSchema = {
  type: 'string',
  enum: [...EXPLORER_KEYS],
  description:
    'Explorer key: `events` (bot requests: which pages bots crawl, when, cache status, serve times), `search-pages` (search clicks, impressions, ctr and position per page), `search-keywords` (the same per search query), `pages` (SEO health: each page\'s latest facts, issue codes, bot requests and search figures), `page_changes` (what changed for bots between renders).',
};

export const MODE_SCHEMA: JsonSchema = {
  type: 'string',
  enum: [...MODE_KEYS],
  description: `Mode of the explorer; omit for its default. ${EXPLORER_CATALOG.map((e) => `${e.key}: ${modesOf(e)}`).join('; ')}.`,
};

export const PERIOD_SCHEMA: JsonSchema = {
  type: 'string',
  description:
    `Time window, UTC. A preset (${EXPLORER_CATALOG.map((e) => `${e.key}: ${list(e.periods.presets)}`).join('; ')}; a day preset is the last N days up to now) ` +
    `or a range \`YYYY-MM-DD,YYYY-MM-DD\`, both days included (e.g. this month: \`<first of the month>,<today>\`), at most ${EXPLORER_CATALOG[0].periods.maxRangeDays} days. ` +
    `Default: ${EXPLORER_CATALOG.map((e) => `${e.key} ${e.modes[0].defaults.period}`).join(', ')}.`,
};

export const COMP_PERIOD_SCHEMA: JsonSchema = {
  type: 'string',
  description: 'events `comparison` mode only: the window to compare `period` against, whole days (a day preset or `YYYY-MM-DD,YYYY-MM-DD`). Default: the window of the same length just before `period`.',
};

export const COMP_CATEGORY_SCHEMA: JsonSchema = {
  type: 'string',
  enum: [...COMP_CATEGORIES],
  description: `events \`comparison\` mode only: \`lost\` = pages bots requested in compPeriod but not in period (crawling stopped), \`new\` = only in period, \`returning\` = in both. Default \`${DEFAULT_COMP_CATEGORY}\`. Lost pages have 0 requests: sort them by \`comp_requests\`.`,
};

export const FILTERS_DESCRIPTION =
  `Conditions, all of which must hold: {field, op, val} (val2 with \`between\`; no val with \`empty\`/\`not_empty\`). Fields and operators per explorer: ` +
  `${EXPLORER_CATALOG.map((e) => `${e.key}: ${filtersOf(e)}`).join('; ')}. ` +
  'The page column is filtered as `url` (e.g. {field: "url", op: "contains", val: "/pricing"}); bot names are as recorded, e.g. Googlebot.';

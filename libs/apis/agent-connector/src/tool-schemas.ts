import type { JsonSchema } from './openapi-schemas';
import { EXPLORER_KEY_SCHEMA } from './explorer-argument-hints';

/** Path parameters as tool arguments: the API has them in the URL, not in a DTO. */
export const WEBSITE_ARGUMENT: JsonSchema = {
  type: 'string',
  description: 'Website id, as list_websites returns it (e.g. "demo"). The token must have a role on it.',
};

export const EXPLORER_ARGUMENT: JsonSchema = EXPLORER_KEY_SCHEMA;

export const EXPORT_ID_ARGUMENT: JsonSchema = {
  type: 'integer',
  minimum: 1,
  description: 'The export id start_export returned (or a 409 named).',
};

/** Output schema of query_explorer: one page of rows, the API's `meta`, and the next page to ask for. */
export const QUERY_OUTPUT: JsonSchema = {
  type: 'object',
  properties: {
    rows: { type: 'array', items: { type: 'object', additionalProperties: true }, description: 'The rows of this page; keys are the column keys (plus companions: `_title`, `_status_code` with `page`)' },
    meta: {
      type: 'object',
      additionalProperties: true,
      description: 'What ran: explorerKey, mode, page, perPage, total (rows over all pages), totalPages, columns, sort, sortDir, period, window {start, end} (ISO, end exclusive), compPeriod/compWindow/compCategory in comparison mode',
    },
    nextPage: { type: ['integer', 'null'], description: 'The `page` argument that gets the next rows; null on the last page' },
  },
  required: ['rows', 'meta', 'nextPage'],
};

export const DISCOVERY_OUTPUT: JsonSchema = {
  type: 'object',
  properties: {
    explorers: { type: 'array', items: { type: 'object', additionalProperties: true } },
    limits: { type: 'object', properties: { perPageMax: { type: 'integer' }, perPageDefault: { type: 'integer' }, exportRowCap: { type: 'integer' } } },
  },
  required: ['explorers', 'limits'],
};

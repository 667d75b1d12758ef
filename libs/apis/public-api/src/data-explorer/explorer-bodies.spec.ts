import { AppError } from '@bpc/domain';
import { validateBody } from '@bpc/platform';
import { StartExportDto } from '@bpc/exports';
import { QueryExplorerDto } from './query-explorer.dto';

/** The refusal of `body`, as the public API answers it: field and message. */
function refusal(dto: new () => object, body: Record<string, unknown>): { field?: string; message: string } {
  try {
    validateBody(dto, body, { forbidUnknownKeys: true });
  } catch (error) {
    if (error instanceof AppError && error.code === 'VALIDATION_FAILED') return { field: error.field, message: error.message };
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(body)}`);
}

const QUERY_FIELDS = ['mode', 'columns', 'filters', 'period', 'compPeriod', 'compCategory', 'sort', 'sortDir', 'page', 'perPage'];
const EXPORT_FIELDS = ['mode', 'columns', 'filters', 'period', 'compPeriod', 'compCategory', 'sort', 'sortDir', 'filename', 'maxRows', 'waitSeconds'];

describe.each<[string, new () => object, string[]]>([
  ['query body', QueryExplorerDto, QUERY_FIELDS],
  ['export body', StartExportDto, EXPORT_FIELDS],
])('%s', (_name, dto, fields) => {
  it.each(fields)('refuses null for %s, naming it (null is not "omitted")', (field) => {
    expect(refusal(dto, { [field]: null }).field).toBe(field);
  });

  it('refuses null for a filter operator, naming it', () => {
    expect(refusal(dto, { filters: [{ field: 'url', op: null, val: 'a' }] }).field).toBe('filters[0].op');
  });

  it.each<[Record<string, unknown>, string, RegExp]>([
    [{ mode: 5 }, 'mode', /^mode must be a string$/],
    [{ columns: 'page' }, 'columns', /^columns must be an array/],
    [{ filters: 'x' }, 'filters', /^filters must be an array/],
    [{ filters: [{ field: 7 }] }, 'filters[0].field', /^filters\[0\]\.field must be a string$/],
    [{ period: 30 }, 'period', /^period must be a string$/],
    [{ sortDir: 5 }, 'sortDir', /^sortDir must be "asc" or "desc"$/],
  ])('checks the type of %j before its bounds', (body, field, message) => {
    expect(refusal(dto, body)).toEqual({ field, message: expect.stringMatching(message) });
  });

  it('still checks the bounds of a value of the right type', () => {
    expect(refusal(dto, { columns: Array.from({ length: 101 }, () => 'page') })).toEqual({ field: 'columns', message: 'columns holds at most 100 keys' });
    expect(refusal(dto, { period: 'x'.repeat(101) }).field).toBe('period');
  });
});

describe('numbers', () => {
  it.each<[new () => object, Record<string, unknown>, string, string]>([
    [QueryExplorerDto, { page: '2' }, 'page', 'page must be an integer'],
    [QueryExplorerDto, { page: 0 }, 'page', 'page must be 1 or more'],
    [QueryExplorerDto, { perPage: 1.5 }, 'perPage', 'perPage must be an integer'],
    [StartExportDto, { maxRows: '10' }, 'maxRows', 'maxRows must be an integer'],
    [StartExportDto, { maxRows: 0 }, 'maxRows', 'maxRows must be 1 or more'],
    [StartExportDto, { waitSeconds: 31 }, 'waitSeconds', 'waitSeconds must be an integer from 0 to 30'],
    [StartExportDto, { filename: 5 }, 'filename', 'filename must be a string'],
  ])('%p %j → %s: %s', (dto, body, field, message) => {
    expect(refusal(dto, body)).toEqual({ field, message });
  });
});

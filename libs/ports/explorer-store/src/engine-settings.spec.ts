import { assertDedupToken, assertTableName, insertStatement, quoteStringLiteral } from './engine-settings';

describe('insertStatement', () => {
  it('puts the token and insert settings in the statement itself', () => {
    expect(insertStatement('bot_requests', 'p0:10-20')).toBe(
      "INSERT INTO bot_requests SETTINGS insert_deduplication_token = 'p0:10-20', " +
        "date_time_input_format = 'best_effort', input_format_skip_unknown_fields = 0, deduplicate_blocks_in_dependent_materialized_views = 1 FORMAT JSONEachRow",
    );
  });

  it('skips unmapped fields only for intake tables, which take stored events as they are', () => {
    expect(insertStatement('bot_request_events', 't')).toContain('input_format_skip_unknown_fields = 1');
    expect(insertStatement('render_recorded_events', 't')).toContain('input_format_skip_unknown_fields = 1');
    expect(insertStatement('bot_requests', 't')).toContain('input_format_skip_unknown_fields = 0');
  });

  it("reads the rows from a file when given one, uncompressed, with an adapter's settings that cannot change the insert's own", () => {
    expect(insertStatement('bot_requests', 't', { file: "/d/it's.jsonl", settings: { input_format_parallel_parsing: 0, insert_deduplication_token: 'other' } })).toBe(
      "INSERT INTO bot_requests FROM INFILE '/d/it\\'s.jsonl' COMPRESSION 'none' SETTINGS input_format_parallel_parsing = 0, insert_deduplication_token = 't', " +
        "date_time_input_format = 'best_effort', input_format_skip_unknown_fields = 0, deduplicate_blocks_in_dependent_materialized_views = 1 FORMAT JSONEachRow",
    );
  });

  it('escapes quotes and backslashes in the token', () => {
    expect(insertStatement('db.t', "a'b\\c")).toContain("insert_deduplication_token = 'a\\'b\\\\c'");
  });

  it('refuses table names that are not plain identifiers', () => {
    expect(() => insertStatement('t; DROP TABLE x', 'tok')).toThrow(RangeError);
    expect(() => assertTableName('t FORMAT CSV')).toThrow(RangeError);
    expect(assertTableName('bpc.bot_requests')).toBe('bpc.bot_requests');
  });
});

describe('quoteStringLiteral', () => {
  it('escapes the characters that could end the literal', () => {
    expect(quoteStringLiteral("x'; DROP TABLE t; --\\")).toBe("'x\\'; DROP TABLE t; --\\\\'");
  });
});

describe('assertDedupToken', () => {
  it('refuses an empty token, which would fall back to content hashing', () => {
    expect(() => assertDedupToken('')).toThrow(RangeError);
    expect(assertDedupToken('t1')).toBe('t1');
  });
});

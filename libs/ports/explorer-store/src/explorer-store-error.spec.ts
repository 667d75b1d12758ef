import { ExplorerStoreError, toExplorerStoreError } from './explorer-store-error';

describe('toExplorerStoreError', () => {
  it("reads code and type from chDB's message and keeps ClickHouse's text", () => {
    const chdb = Object.assign(
      new Error("Code: 60. DB::Exception: Unknown table expression identifier 'nope' in scope SELECT * FROM nope. (UNKNOWN_TABLE)"),
      { clickhouseCode: 60, code: 'CHDB_QUERY' },
    );
    const err = toExplorerStoreError(chdb);
    expect(err).toBeInstanceOf(ExplorerStoreError);
    expect(err).toMatchObject({ clickhouseCode: 60, clickhouseType: 'UNKNOWN_TABLE', cause: chdb });
    expect(err.message).toBe("Unknown table expression identifier 'nope' in scope SELECT * FROM nope.");
  });

  it('reads the code from the text when the error carries none (chDB stream errors)', () => {
    const err = toExplorerStoreError(new Error('Code: 395. DB::Exception: boom: while executing. (FUNCTION_THROW_IF_VALUE_IS_NON_ZERO) (version 26.7.2.1)'));
    expect(err).toMatchObject({ clickhouseCode: 395, clickhouseType: 'FUNCTION_THROW_IF_VALUE_IS_NON_ZERO', message: 'boom: while executing.' });
  });

  it("takes clickhouse-js's code and type fields", () => {
    const js = Object.assign(new Error('Syntax error: failed at position 7'), { code: '62', type: 'SYNTAX_ERROR' });
    expect(toExplorerStoreError(js)).toMatchObject({ clickhouseCode: 62, clickhouseType: 'SYNTAX_ERROR', message: 'Syntax error: failed at position 7' });
  });

  it('wraps non-engine failures without a code', () => {
    expect(toExplorerStoreError(new Error('socket hang up'))).toMatchObject({ message: 'socket hang up', clickhouseCode: undefined, clickhouseType: undefined });
    expect(toExplorerStoreError('plain')).toMatchObject({ message: 'plain' });
  });

  it('passes an ExplorerStoreError through', () => {
    const err = new ExplorerStoreError('closed');
    expect(toExplorerStoreError(err)).toBe(err);
  });
});

import { ExplorerStoreError } from './explorer-store-error';
import { assertSingleStatement, splitSqlStatements } from './sql-statements';

describe('splitSqlStatements', () => {
  it('splits on semicolons and trims each statement', () => {
    expect(splitSqlStatements('CREATE TABLE a (x UInt8) ENGINE = Memory;\n\nCREATE TABLE b (y UInt8) ENGINE = Memory;\n')).toEqual([
      'CREATE TABLE a (x UInt8) ENGINE = Memory',
      'CREATE TABLE b (y UInt8) ENGINE = Memory',
    ]);
  });

  it('keeps a last statement without a semicolon', () => {
    expect(splitSqlStatements('SELECT 1; SELECT 2')).toEqual(['SELECT 1', 'SELECT 2']);
  });

  it('ignores semicolons inside string literals, with both escape styles', () => {
    const sql = "SELECT 'a;b', 'it''s;', 'back\\';slash' FROM t; SELECT 2";
    expect(splitSqlStatements(sql)).toEqual(["SELECT 'a;b', 'it''s;', 'back\\';slash' FROM t", 'SELECT 2']);
  });

  it('ignores semicolons inside quoted identifiers', () => {
    expect(splitSqlStatements('SELECT 1 AS `a;b`, 2 AS "c;d"; SELECT 3')).toEqual([
      'SELECT 1 AS `a;b`, 2 AS "c;d"',
      'SELECT 3',
    ]);
  });

  it('ignores semicolons inside comments and drops comment-only fragments', () => {
    const sql = '-- header; still a comment\nSELECT 1 /* inline; comment */;\n-- trailing note;\n/* block; */\n';
    expect(splitSqlStatements(sql)).toEqual(['-- header; still a comment\nSELECT 1 /* inline; comment */']);
  });

  it('drops empty statements', () => {
    expect(splitSqlStatements(';;  ;\n')).toEqual([]);
  });

  it('rejects unterminated quotes and comments', () => {
    expect(() => splitSqlStatements("SELECT 'open")).toThrow(/unterminated ' quote/);
    expect(() => splitSqlStatements('SELECT 1 /* open')).toThrow(/unterminated block comment/);
  });
});

describe('assertSingleStatement', () => {
  it('accepts one statement, with or without a trailing semicolon', () => {
    expect(() => assertSingleStatement('SELECT 1')).not.toThrow();
    expect(() => assertSingleStatement("SELECT ';' ;")).not.toThrow();
  });

  it('refuses several statements like a ClickHouse server does', () => {
    expect(() => assertSingleStatement('SELECT 1; DROP TABLE bot_requests')).toThrow(ExplorerStoreError);
    expect(() => assertSingleStatement('SELECT 1; DROP TABLE bot_requests')).toThrow(/Multi-statements/);
  });

  it('leaves malformed SQL for the engine to report', () => {
    expect(() => assertSingleStatement("SELECT 'open")).not.toThrow();
  });
});

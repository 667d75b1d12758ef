import { refusalOf } from './statement-refusal';
import { parseSyntaxTree } from './syntax-tree';

// EXPLAIN AST of each statement, as chDB 26.7 prints it (statement-refusal.int-spec.ts asks the engine itself).
const refusalOfDump = (dump: string) => refusalOf(parseSyntaxTree(dump.split('\n')));

const SELECT_1 = ` ExpressionList (children 1)
  SelectQuery (children 1)
   ExpressionList (children 1)
    Literal UInt64_1`;

describe('refusalOf (what read-only mode lets through, refused before the engine sees it)', () => {
  describe('given a statement with INTO OUTFILE', () => {
    it.each([
      ['SELECT 1 INTO OUTFILE …', `SelectWithUnionQuery (children 2)\n${SELECT_1}\n Literal '/tmp/f'`],
      ['… APPEND FORMAT TSVRaw', `SelectWithUnionQuery (children 3)\n${SELECT_1}\n Literal '/tmp/f'\n Identifier TSVRaw`],
      ['… COMPRESSION … LEVEL … FORMAT', `SelectWithUnionQuery (children 5)\n${SELECT_1}\n Literal '/tmp/f'\n Literal 'gzip'\n Literal UInt64_3\n Identifier TSV`],
      ['SHOW TABLES INTO OUTFILE …', "ShowTables (children 1)\n Literal '/tmp/f'"],
      ['DESCRIBE t INTO OUTFILE …', "DescribeQuery (children 2)\n TableExpression (children 1)\n  TableIdentifier t\n Literal '/tmp/f'"],
      ['EXISTS t INTO OUTFILE …', "ExistsTableQuery  t (children 2)\n Identifier t\n Literal '/tmp/f'"],
      ['EXPLAIN PLAN header = 1 SELECT 1 INTO OUTFILE …', `Explain EXPLAIN (children 3)\n Set\n SelectWithUnionQuery (children 1)\n${SELECT_1.replace(/^/gm, ' ')}\n Literal '/tmp/f'`],
      // The file belongs to the SELECT inside the EXPLAIN.
      ['EXPLAIN AST EXPLAIN AST SELECT 1 INTO OUTFILE …', `Explain EXPLAIN AST (children 1)\n SelectWithUnionQuery (children 2)\n${SELECT_1.replace(/^/gm, ' ')}\n  Literal '/tmp/f'`],
      [
        'SELECT 1 PARALLEL WITH SELECT 2 INTO OUTFILE …',
        `ParallelWithQuery 2 SelectWithUnionQuery (children 2)\n SelectWithUnionQuery (children 1)\n${SELECT_1.replace(/^/gm, ' ')}\n SelectWithUnionQuery (children 2)\n${SELECT_1.replace(/^/gm, ' ')}\n  Literal '/tmp/f'`,
      ],
    ])('%s: refused as INTO_OUTFILE', (_statement, dump) => {
      expect(refusalOfDump(dump)).toBe('INTO_OUTFILE');
    });
  });

  describe('given a SYSTEM statement', () => {
    it.each([
      ['SYSTEM STOP MERGES', 'SYSTEM query'],
      ['SYSTEM STOP TTL MERGES bot_requests', 'SYSTEM query (children 1)\n Identifier bot_requests'],
      ['EXPLAIN SYNTAX SYSTEM STOP MERGES', 'Explain EXPLAIN SYNTAX (children 1)\n SYSTEM query'],
      [
        'SELECT 1 PARALLEL WITH SYSTEM STOP FETCHES',
        `ParallelWithQuery 2 SelectWithUnionQuery (children 2)\n SelectWithUnionQuery (children 1)\n${SELECT_1.replace(/^/gm, ' ')}\n SYSTEM query`,
      ],
    ])('%s: refused as SYSTEM', (_statement, dump) => {
      expect(refusalOfDump(dump)).toBe('SYSTEM');
    });
  });

  it.each([
    ['KILL QUERY WHERE 1', 'KillQueryQuery Literal_UInt64_1 ASYNC (children 1)\n Literal UInt64_1', 'KILL'],
    ["KILL MUTATION WHERE 'a' (a string literal, yet not a file)", "KillQueryQuery Literal_'a' ASYNC (children 1)\n Literal 'a'", 'KILL'],
    ['USE system', 'UseQuery system (children 1)\n Identifier system', 'USE'],
    ["BACKUP TABLE t TO S3('http://x/b')", "BackupQuery (children 1)\n Function S3 (children 1)\n  ExpressionList (children 1)\n   Literal 'http://x/b'", 'BACKUP'],
    ["BACKUP DATABASE default TO File('b') (a backup engine named like the file function)", "BackupQuery (children 1)\n Function File (children 1)\n  ExpressionList (children 1)\n   Literal 'b'", 'BACKUP'],
    ["RESTORE TABLE t FROM Memory('b')", "RestoreQuery (children 1)\n Function Memory (children 1)\n  ExpressionList (children 1)\n   Literal 'b'", 'BACKUP'],
    [
      "DESCRIBE file('/etc/passwd', 'CSVWithNames')",
      "DescribeQuery (children 1)\n TableExpression (children 1)\n  Function file (children 1)\n   ExpressionList (children 2)\n    Literal '/etc/passwd'\n    Literal 'CSVWithNames'",
      'DESCRIBE_TABLE_FUNCTION',
    ],
    [
      "SELECT file('/etc/hostname')",
      "SelectWithUnionQuery (children 1)\n ExpressionList (children 1)\n  SelectQuery (children 1)\n   ExpressionList (children 1)\n    Function file (children 1)\n     ExpressionList (children 1)\n      Literal '/etc/hostname'",
      'FILE_FUNCTION',
    ],
    ['a quoted name with a line break', 'SelectWithUnionQuery (children 1)\n ExpressionList (children 1)\n  SelectQuery (children 1)\n   ExpressionList (children 1)\n    Identifier a\nb', 'UNREADABLE'],
  ])('%s: refused as %s', (_statement, dump, refusal) => {
    expect(refusalOfDump(dump)).toBe(refusal);
  });

  describe('lets the engine decide the rest', () => {
    it.each([
      ['SELECT 1', `SelectWithUnionQuery (children 1)\n${SELECT_1}`],
      ["SELECT 'INTO OUTFILE /tmp/f', 'SYSTEM STOP MERGES' (the words in strings)", "SelectWithUnionQuery (children 1)\n ExpressionList (children 1)\n  SelectQuery (children 1)\n   ExpressionList (children 2)\n    Literal 'INTO OUTFILE /tmp/f'\n    Literal 'SYSTEM STOP MERGES'"],
      ["SELECT 1 WHERE 'a' (a string literal below the statement)", `SelectWithUnionQuery (children 1)\n ExpressionList (children 1)\n  SelectQuery (children 2)\n   ExpressionList (children 1)\n    Literal UInt64_1\n   Literal 'a'`],
      ['SELECT 1 FORMAT JSON', `SelectWithUnionQuery (children 2)\n${SELECT_1}\n Identifier JSON`],
      ['SELECT * FROM system.tables', 'SelectWithUnionQuery (children 1)\n ExpressionList (children 1)\n  SelectQuery (children 2)\n   ExpressionList (children 1)\n    Asterisk\n   TablesInSelectQuery (children 1)\n    TablesInSelectQueryElement (children 1)\n     TableExpression (children 1)\n      TableIdentifier system.tables'],
      ["SELECT * FROM file('/etc/passwd') (the engine refuses the table function)", "SelectWithUnionQuery (children 1)\n ExpressionList (children 1)\n  SelectQuery (children 2)\n   ExpressionList (children 1)\n    Asterisk\n   TablesInSelectQuery (children 1)\n    TablesInSelectQueryElement (children 1)\n     TableExpression (children 1)\n      Function file (children 1)\n       ExpressionList (children 1)\n        Literal '/etc/passwd'"],
      ['SHOW TABLES', 'ShowTables'],
      ['DESCRIBE TABLE bot_requests', 'DescribeQuery (children 1)\n TableExpression (children 1)\n  TableIdentifier bot_requests'],
      ['EXPLAIN PLAN header = 1 SELECT 1', `Explain EXPLAIN (children 2)\n Set\n SelectWithUnionQuery (children 1)\n${SELECT_1.replace(/^/gm, ' ')}`],
      ['DELETE FROM t WHERE 1 (the engine refuses the write)', 'DeleteQuery  t (children 2)\n Literal UInt64_1\n Identifier t'],
      ["UPDATE t SET x = 2 WHERE 'a' (a WHERE literal, not a file)", "UpdateQuery  t (children 3)\n Identifier t\n Literal 'a'\n ExpressionList (children 1)\n  Assignment x (children 1)\n   Literal UInt64_2"],
      [
        "INSERT INTO FUNCTION file('/tmp/f', 'TSV', 'x UInt8') SELECT 1 (the engine refuses the write)",
        `InsertQuery   (children 2)\n Function file (children 1)\n  ExpressionList (children 3)\n   Literal '/tmp/f'\n   Literal 'TSV'\n   Literal 'x UInt8'\n SelectWithUnionQuery (children 1)\n${SELECT_1.replace(/^/gm, ' ')}`,
      ],
      ["CREATE TABLE x AS file('/etc/hostname') (the engine refuses the DDL)", "CreateQuery x (children 2)\n Identifier x\n Function file (children 1)\n  ExpressionList (children 1)\n   Literal '/etc/hostname'"],
      ['INSERT INTO t SELECT 1 (the engine refuses the write)', `InsertQuery   (children 2)\n Identifier t\n SelectWithUnionQuery (children 1)\n${SELECT_1.replace(/^/gm, ' ')}`],
    ])('%s', (_statement, dump) => {
      expect(refusalOfDump(dump)).toBeUndefined();
    });
  });
});

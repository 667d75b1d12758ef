import { kindOf, someNode, type SyntaxNode } from './syntax-tree';

/**
 * What the operator's SQL console refuses before a statement reaches the
 * engine: what chDB's read-only mode (`readonly = 1`) lets run although it
 * writes, controls the engine or reads outside its tables. Everything else
 * the engine decides (writes, DDL, settings, table functions in a SELECT).
 */
export type StatementRefusal = 'INTO_OUTFILE' | 'SYSTEM' | 'BACKUP' | 'KILL' | 'USE' | 'DESCRIBE_TABLE_FUNCTION' | 'FILE_FUNCTION' | 'UNREADABLE';

/** What is refused and why, in the operator's words. */
export const STATEMENT_REFUSALS: Readonly<Record<StatementRefusal, { readonly what: string; readonly why: string }>> = {
  INTO_OUTFILE: {
    what: 'INTO OUTFILE',
    why: 'chDB would write (or append to) that file itself, on the server and inside this process, and read-only mode does not stop it; take the rows as JSON or CSV (--format csv) instead',
  },
  SYSTEM: {
    what: 'SYSTEM statements',
    why: 'they control the engine (SYSTEM STOP MERGES, STOP TTL MERGES and STOP FETCHES would stop the background work of the tables the projector keeps), and read-only mode lets several of them run',
  },
  BACKUP: {
    what: 'BACKUP and RESTORE',
    why: 'BACKUP copies tables wherever it names (another host with S3(…), the process’s memory with Memory(…)) and read-only mode lets it run; RESTORE reads one back',
  },
  KILL: { what: 'KILL', why: 'it stops statements running in this process, the projector’s writes among them, and read-only mode does not stop it' },
  USE: { what: 'USE', why: 'it would switch the database of a pooled connection for the statements after it; name the database in the statement instead (system.tables)' },
  DESCRIBE_TABLE_FUNCTION: {
    what: 'DESCRIBE of a table function',
    why: 'finding its columns reads the file or fetches the address it names, which read-only mode refuses in a SELECT but not here',
  },
  FILE_FUNCTION: { what: 'the file() function', why: 'it reads any file the service may read, outside the engine’s tables, and read-only mode does not stop it' },
  UNREADABLE: {
    what: 'this statement',
    why: 'the engine’s syntax tree of it could not be read, so it cannot be checked (a quoted name with a line break prints as several lines of it)',
  },
};

/** The first rule the statement breaks, given its syntax tree (`parseSyntaxTree`; undefined when unreadable). */
export function refusalOf(tree: SyntaxNode | undefined): StatementRefusal | undefined {
  if (tree === undefined) return 'UNREADABLE';
  return RULES.find(([, breaks]) => breaks(tree))?.[0];
}

const RULES: ReadonlyArray<readonly [StatementRefusal, (tree: SyntaxNode) => boolean]> = [
  // Anywhere, EXPLAIN and PARALLEL WITH included: no SYSTEM statement is worth telling apart.
  ['SYSTEM', (tree) => someNode(tree, (node) => kindOf(node) === 'SYSTEM')],
  ['BACKUP', (tree) => someNode(tree, (node) => kindOf(node) === 'BackupQuery' || kindOf(node) === 'RestoreQuery')],
  ['KILL', (tree) => someNode(tree, (node) => kindOf(node) === 'KillQueryQuery')],
  ['USE', (tree) => someNode(tree, (node) => kindOf(node) === 'UseQuery')],
  ['INTO_OUTFILE', (tree) => statementsOf(tree).some(namesOutputFile)],
  ['DESCRIBE_TABLE_FUNCTION', (tree) => someNode(tree, describesTableFunction)],
  ['FILE_FUNCTION', (tree) => someNode(tree, (node) => !TABLE_FUNCTION_PLACES.has(kindOf(node)) && node.children.some(isFileFunction))],
];

/**
 * Where `file` names a table function or engine, not the function: FROM
 * file(…), INSERT INTO FUNCTION file(…), CREATE … AS file(…), ENGINE =
 * File(…). Read-only mode refuses those itself.
 */
const TABLE_FUNCTION_PLACES = new Set(['TableExpression', 'InsertQuery', 'CreateQuery', 'Storage']);

function isFileFunction(node: SyntaxNode): boolean {
  return kindOf(node) === 'Function' && node.label.split(' ')[1]?.toLowerCase() === 'file';
}

/**
 * The statements of the tree: itself, and those it holds where the grammar
 * takes a whole statement (EXPLAIN's, each of PARALLEL WITH's). A subquery
 * is not one: the engine refuses INTO OUTFILE there as a syntax error.
 */
function statementsOf(node: SyntaxNode): SyntaxNode[] {
  const held = kindOf(node) === 'Explain' || kindOf(node) === 'ParallelWithQuery' ? node.children.flatMap(statementsOf) : [];
  return [node, ...held];
}

// DELETE and UPDATE keep a bare WHERE literal among their own children; their grammar has no INTO OUTFILE.
const WITHOUT_OUTPUT_CLAUSE = new Set(['DeleteQuery', 'UpdateQuery']);

/**
 * INTO OUTFILE puts its file name (then COMPRESSION's) as a string literal
 * directly under the statement; the statement's own expressions sit lower,
 * under ExpressionList, TableExpression or Partition nodes.
 */
function namesOutputFile(statement: SyntaxNode): boolean {
  return !WITHOUT_OUTPUT_CLAUSE.has(kindOf(statement)) && statement.children.some((child) => child.label.startsWith("Literal '"));
}

function describesTableFunction(node: SyntaxNode): boolean {
  return (
    kindOf(node) === 'DescribeQuery' &&
    node.children.some((child) => kindOf(child) === 'TableExpression' && child.children.some((inner) => kindOf(inner) === 'Function'))
  );
}

import { type ExplorerStore, ExplorerStoreError } from '@bpc/explorer-store';

/**
 * The lines of the engine's syntax tree of one statement (`EXPLAIN AST`),
 * parsed and never run, for the console to check before running it.
 *
 * The engine's own parser, rather than patterns or an npm SQL parser: it is
 * the grammar the statement will run under (comments of three kinds, casing,
 * quoting, heredocs, implicit SELECT, PARALLEL WITH, whatever the next
 * version adds), where a second grammar would disagree at the edges, and
 * the edges are where a statement gets through.
 *
 * The statement first goes to `formatQuerySingleLine` as a bound parameter:
 * data, so nothing of it runs. The engine refuses there what is not exactly
 * one statement and answers it canonical: comments gone, clauses in the
 * grammar's order. Only that canonical text follows EXPLAIN AST; the
 * operator's own text never does, because output clauses that the statement
 * leaves over are EXPLAIN's (`EXPLAIN AST SELECT 1 FORMAT TSV INTO OUTFILE
 * 'f'` writes f, although `SELECT 1 FORMAT TSV INTO OUTFILE 'f'` alone is a
 * syntax error), and a canonical statement leaves nothing over.
 */
export async function explainSyntaxTree(engine: ExplorerStore, sql: string): Promise<string[]> {
  const [{ statement }] = await engine.query<{ statement: string }>(CANONICAL, { sql }).catch((error: unknown) => {
    throw withoutEcho(error);
  });
  const lines = await engine.query<{ explain: string }>(`EXPLAIN AST ${statement}`);
  return lines.map((line) => line.explain);
}

const CANONICAL = 'SELECT formatQuerySingleLine({sql:String}) AS statement';

// The engine's parse error ends by quoting the call, statement and all: the reason is enough.
const ECHO = /[\s.]*:\s*In scope SELECT formatQuerySingleLine\([\s\S]*\) AS statement\.?$/;

function withoutEcho(error: unknown): unknown {
  if (!(error instanceof ExplorerStoreError) || !ECHO.test(error.message)) return error;
  return new ExplorerStoreError(error.message.replace(ECHO, ''), error.clickhouseCode, error.clickhouseType, { cause: error });
}

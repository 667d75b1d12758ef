import { kindOf, parseSyntaxTree, someNode } from './syntax-tree';

const linesOf = (dump: string) => dump.split('\n');

describe('parseSyntaxTree (the lines of EXPLAIN AST)', () => {
  it('builds the tree from the indentation and the announced child counts', () => {
    const tree = parseSyntaxTree(
      linesOf(`SelectWithUnionQuery (children 2)
 ExpressionList (children 1)
  SelectQuery (children 1)
   ExpressionList (children 2)
    Literal UInt64_1 (alias x)
    Function count (children 1)
     ExpressionList
 Literal '/tmp/f'`),
    );
    expect(tree).toEqual({
      label: 'SelectWithUnionQuery',
      children: [
        {
          label: 'ExpressionList',
          children: [
            {
              label: 'SelectQuery',
              children: [
                {
                  label: 'ExpressionList',
                  children: [
                    { label: 'Literal UInt64_1 (alias x)', children: [] },
                    { label: 'Function count', children: [{ label: 'ExpressionList', children: [] }] },
                  ],
                },
              ],
            },
          ],
        },
        { label: "Literal '/tmp/f'", children: [] },
      ],
    });
  });

  it('reads a single node', () => {
    expect(parseSyntaxTree(['SYSTEM query'])).toEqual({ label: 'SYSTEM query', children: [] });
  });

  it.each([
    ['no line', []],
    ['an empty line', ['']],
    ['fewer children than announced', ['SelectWithUnionQuery (children 2)', ' ExpressionList']],
    ['more children than announced', ['SelectWithUnionQuery (children 1)', ' ExpressionList', " Literal '/tmp/f'"]],
    ['a second root', ['SYSTEM query', 'SYSTEM query']],
    ['a child two levels down', ['SelectWithUnionQuery (children 1)', '  ExpressionList']],
    ['an indented root', [' SelectWithUnionQuery']],
    // `SELECT \`a⏎b\``: the engine prints the name raw, over two lines.
    ['a quoted name with a line break', ['SelectWithUnionQuery (children 1)', ' ExpressionList (children 1)', '  Identifier a', 'b']],
  ])('is undefined for lines that do not make one tree: %s', (_name, lines) => {
    expect(parseSyntaxTree(lines)).toBeUndefined();
  });

  it('lets a name that imitates lines add nodes, never move the real ones (the file name stays under the statement)', () => {
    // `SELECT \`x (children 1)⏎   Identifier y\` INTO OUTFILE '/tmp/f'`: the imitated line hangs under the name's own node.
    const tree = parseSyntaxTree(
      linesOf(`SelectWithUnionQuery (children 2)
 ExpressionList (children 1)
  SelectQuery (children 1)
   ExpressionList (children 1)
    Identifier x (children 1)
     Identifier y
 Literal '/tmp/f'`),
    );
    expect(tree?.children.map((child) => child.label)).toEqual(['ExpressionList', "Literal '/tmp/f'"]);
    // An imitated sibling of the statement's children would make one child too many.
    expect(
      parseSyntaxTree(
        linesOf(`SelectWithUnionQuery (children 2)
 ExpressionList (children 1)
  SelectQuery (children 1)
   ExpressionList (children 1)
    Identifier x
 Identifier TSV
 Literal '/tmp/f'`),
      ),
    ).toBeUndefined();
  });
});

describe('kindOf and someNode', () => {
  it('the kind is the label’s first word', () => {
    expect(kindOf({ label: 'SYSTEM query', children: [] })).toBe('SYSTEM');
    expect(kindOf({ label: 'Explain EXPLAIN AST', children: [] })).toBe('Explain');
    expect(kindOf({ label: "Literal 'a b'", children: [] })).toBe('Literal');
  });

  it('finds a node at any depth', () => {
    const tree = parseSyntaxTree(linesOf('Explain EXPLAIN SYNTAX (children 1)\n SYSTEM query'))!;
    expect(someNode(tree, (node) => kindOf(node) === 'SYSTEM')).toBe(true);
    expect(someNode(tree, (node) => kindOf(node) === 'KillQueryQuery')).toBe(false);
  });
});

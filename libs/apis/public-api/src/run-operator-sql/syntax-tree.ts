/** One node of the engine's syntax tree as `EXPLAIN AST` prints it: `SelectWithUnionQuery`, `Literal '/tmp/f'`, `SYSTEM query` … */
export interface SyntaxNode {
  readonly label: string;
  readonly children: readonly SyntaxNode[];
}

// A node a line: one space of indentation per level, `(children N)` after a node that has children.
const NODE_LINE = /^( *)(\S.*?)(?: \(children (\d+)\))?$/;

/**
 * The tree of `EXPLAIN AST`'s lines, or undefined when they do not make
 * exactly one.
 *
 * The engine prints names raw, so a quoted name with a line break prints as
 * several lines, and those could imitate nodes. Every line must sit exactly
 * one level below its parent and every parent must have exactly the children
 * it announces, so imitated lines cannot move a real node from its place
 * (every real line keeps its depth, and a real parent its count): they can
 * only add nodes, or make the tree unreadable. Either way the statement is
 * refused, never let through.
 */
export function parseSyntaxTree(lines: readonly string[]): SyntaxNode | undefined {
  let next = 0;
  const nodeAt = (depth: number): SyntaxNode | undefined => {
    const match = NODE_LINE.exec(lines[next] ?? '');
    if (match === null || match[1].length !== depth) return undefined;
    next += 1;
    const children: SyntaxNode[] = [];
    for (let count = Number(match[3] ?? 0); children.length < count; ) {
      const child = nodeAt(depth + 1);
      if (child === undefined) return undefined;
      children.push(child);
    }
    return { label: match[2], children };
  };
  const root = nodeAt(0);
  return next === lines.length ? root : undefined;
}

/** The node's type: the label's first word (`SYSTEM` of `SYSTEM query`, `Function` of `Function file`). */
export function kindOf(node: SyntaxNode): string {
  return node.label.split(' ', 1)[0];
}

/** Whether the node or any node below it satisfies `test`. */
export function someNode(node: SyntaxNode, test: (node: SyntaxNode) => boolean): boolean {
  return test(node) || node.children.some((child) => someNode(child, test));
}

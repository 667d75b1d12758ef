import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

/** The documentation that must read on its own: README.md, docs/**, bench/RESULTS.md. */
function documents(): string[] {
  const docs = (dir: string): string[] =>
    readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? docs(path.join(dir, entry.name)) : entry.name.endsWith('.md') ? [path.join(dir, entry.name)] : [],
    );
  return ['README.md', 'bench/RESULTS.md', ...docs('docs')];
}

/** Every Markdown link target of a file (`[text](target)` and `[text]: target`), outside code. */
function linkTargets(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  const inline = [...prose.matchAll(/\]\(\s*(?:<([^>\n]*)>|([^)\s]+))(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1] ?? m[2]);
  const references = [...prose.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1]);
  return [...inline, ...references];
}

/** The anchors of a Markdown file's headings, as GitHub makes them. */
function headingAnchors(text: string): Set<string> {
  const headings = text.replace(/```[\s\S]*?```/g, '').match(/^#{1,6} .*$/gm) ?? [];
  return new Set(headings.map((h) => h.replace(/^#+ /, '').trim().toLowerCase().replace(/[^\w\- ]/g, '').replace(/ /g, '-')));
}

/** Why a link does not stay inside the repository or leads nowhere; undefined when its file (and heading) exist. */
function badLink(document: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(target)) return 'points outside the repository (a URL)';
  const [file, anchor] = target.split('#');
  const resolved = file === '' ? path.join(root, document) : path.resolve(root, path.dirname(document), decodeURIComponent(file));
  if (path.relative(root, resolved).startsWith('..')) return 'points outside the repository';
  if (!existsSync(resolved)) return 'names a file that does not exist';
  if (anchor && resolved.endsWith('.md') && !headingAnchors(readFileSync(resolved, 'utf8')).has(anchor)) return 'names a heading that does not exist';
  return undefined;
}

describe('documentation links', () => {
  it('finds links in prose, not in code', () => {
    expect(linkTargets('[a](docs/x.md) `[b](http://c)` [d](<e f.md>)\n```\n[g](../h)\n```\n[i]: https://j')).toEqual(['docs/x.md', 'e f.md', 'https://j']);
  });

  it('flags URLs, paths leaving the repository, missing files and missing headings', () => {
    expect(badLink('README.md', 'https://example.com/spec')).toMatch('URL');
    expect(badLink('README.md', 'mailto:x@example.com')).toMatch('URL');
    expect(badLink('docs/operations.md', '../../shared/spec/public-api.md')).toMatch('outside');
    expect(badLink('docs/operations.md', 'nothing-here.md')).toMatch('file that does not exist');
    expect(badLink('docs/operations.md', '../README.md#no-such-heading')).toMatch('heading that does not exist');
    expect(badLink('docs/operations.md', '../README.md#quick-start')).toBeUndefined();
    expect(badLink('README.md', '#add-your-own-site')).toBeUndefined();
  });

  it("makes GitHub's heading anchors", () => {
    expect([...headingAnchors("# A b\n## Node's heap flags\n### `hosts[].dimensions[]`\n```\n# not a heading\n```")]).toEqual(['a-b', 'nodes-heap-flags', 'hostsdimensions']);
  });

  it('every link of README.md, docs/ and bench/RESULTS.md stays inside the repository and leads to a file and heading that exist', () => {
    const bad = documents().flatMap((document) =>
      linkTargets(readFileSync(path.join(root, document), 'utf8')).flatMap((target) => {
        const reason = badLink(document, target);
        return reason ? [`${document}: ${target} ${reason}`] : [];
      }),
    );

    expect(bad).toEqual([]);
  });
});

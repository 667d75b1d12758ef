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
  const inline = [...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);
  const references = [...prose.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1]);
  return [...inline, ...references];
}

/** Why a link does not stay inside the repository, or undefined when it does and its file exists. */
function outsideLink(document: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(target)) return 'points outside the repository (a URL)';
  const file = target.split('#')[0];
  if (file === '') return undefined;
  const resolved = path.resolve(root, path.dirname(document), decodeURIComponent(file));
  if (path.relative(root, resolved).startsWith('..')) return 'points outside the repository';
  return existsSync(resolved) ? undefined : 'names a file that does not exist';
}

describe('documentation links', () => {
  it('finds links in prose, not in code', () => {
    expect(linkTargets('[a](docs/x.md) `[b](http://c)` [d](<e f.md>)\n```\n[g](../h)\n```\n[i]: https://j')).toEqual(['docs/x.md', 'e f.md', 'https://j']);
  });

  it('flags URLs, paths leaving the repository and missing files', () => {
    expect(outsideLink('README.md', 'https://example.com/spec')).toMatch('URL');
    expect(outsideLink('README.md', 'mailto:x@example.com')).toMatch('URL');
    expect(outsideLink('docs/a.md', '../../shared/spec/public-api.md')).toMatch('outside');
    expect(outsideLink('docs/a.md', 'nothing-here.md')).toMatch('does not exist');
    expect(outsideLink('docs/a.md', '../README.md#the-two-commands')).toBeUndefined();
    expect(outsideLink('README.md', '#add-your-own-site')).toBeUndefined();
  });

  it('every link of README.md, docs/ and bench/RESULTS.md stays inside the repository and names a file that exists', () => {
    const bad = documents().flatMap((document) =>
      linkTargets(readFileSync(path.join(root, document), 'utf8')).flatMap((target) => {
        const reason = outsideLink(document, target);
        return reason ? [`${document}: ${target} ${reason}`] : [];
      }),
    );

    expect(bad).toEqual([]);
  });
});

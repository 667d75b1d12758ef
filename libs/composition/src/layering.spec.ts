import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const LIBS = path.resolve(__dirname, '../..');
const IMPORT = /from '@bpc\/([a-z-]+)'/g;

/**
 * The groups under libs/, lowest first. A library may import its own group's
 * libraries only where the group allows it, and any library of a lower group.
 * The composition root (libs/composition) sits above them all.
 */
const GROUPS = ['core', 'infrastructure', 'ports', 'application', 'features', 'apis'] as const;
type Group = (typeof GROUPS)[number];

/** Groups whose libraries may import each other: the kernel, the ports (the renderer stores bodies in the cache store), and the APIs (exports and the connector serve the public contract with its HTTP kit). */
const SIDEWAYS: ReadonlySet<Group> = new Set(['core', 'infrastructure', 'ports', 'apis']);

const groupOf = new Map<string, Group>();
for (const group of GROUPS) {
  for (const entry of readdirSync(path.join(LIBS, group), { withFileTypes: true })) if (entry.isDirectory()) groupOf.set(entry.name, group);
}
const dirOf = (lib: string): string => (lib === 'composition' ? path.join(LIBS, lib) : path.join(LIBS, groupOf.get(lib)!, lib));

/** The @bpc libraries that `lib`'s product code (specs aside) imports. */
function importsOf(lib: string): Set<string> {
  const found = new Set<string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts') && !/spec\.ts$/.test(entry.name)) {
        for (const [, name] of readFileSync(full, 'utf8').matchAll(IMPORT)) if (name !== lib) found.add(name);
      }
    }
  };
  walk(path.join(dirOf(lib), 'src'));
  return found;
}

/** `lib`'s imports that its group may not make, as "lib → imported (group)". */
function forbiddenImportsOf(lib: string): string[] {
  const own = GROUPS.indexOf(groupOf.get(lib)!);
  return [...importsOf(lib)]
    .filter((name) => {
      if (name === 'testing') return true;
      const other = groupOf.get(name);
      if (!other) return true;
      const rank = GROUPS.indexOf(other);
      return rank > own || (rank === own && !SIDEWAYS.has(other));
    })
    .map((name) => `${lib} → ${name} (${groupOf.get(name) ?? 'not a library'})`);
}

describe('layering: libraries grouped by role, each group importing only downwards', () => {
  it('every library sits in one of the groups (or is the composition root), and every @bpc alias points at one', () => {
    const top = readdirSync(LIBS, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    expect(top.sort()).toEqual([...GROUPS, 'composition'].sort());
    const aliases = JSON.parse(readFileSync(path.join(LIBS, '..', 'tsconfig.json'), 'utf8')).compilerOptions.paths as Record<string, string[]>;
    for (const lib of groupOf.keys()) expect(aliases[`@bpc/${lib}`]).toEqual([`libs/${groupOf.get(lib)}/${lib}/src`]);
  });

  it.each([...GROUPS])('%s imports only lower groups (and its own where the group allows)', (group) => {
    const libs = [...groupOf].filter(([, g]) => g === group).map(([lib]) => lib);
    expect(libs.flatMap(forbiddenImportsOf)).toEqual([]);
  });

  it('a feature reaches another feature only through a named application library', () => {
    // Enforced by the rule above (features may not import features); stated here so the failure reads as the rule.
    const features = [...groupOf].filter(([, g]) => g === 'features').map(([lib]) => lib);
    expect(features.flatMap((lib) => [...importsOf(lib)].filter((name) => groupOf.get(name) === 'features').map((name) => `${lib} → ${name}`))).toEqual([]);
  });

  it('the domain imports no other library, and support imports none at all', () => {
    expect([...importsOf('domain')]).toEqual([]);
    expect([...importsOf('support')]).toEqual([]);
  });

  it('egress (what a customer-controlled URL may reach) depends on the domain and support only', () => {
    expect([...importsOf('egress')].filter((name) => !['domain', 'support'].includes(name))).toEqual([]);
  });

  it('only the apps compose: no library imports the composition root', () => {
    expect([...groupOf.keys()].filter((lib) => importsOf(lib).has('composition'))).toEqual([]);
  });
});

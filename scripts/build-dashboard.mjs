// Builds the dashboard (apps/dashboard, Vite) into dist/dashboard when its
// sources changed since its last build (docs/dashboard.md). Used by
// scripts/build.mjs; `node scripts/build-dashboard.mjs` runs it alone.
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { filesUnder } from './files-under.mjs';

/** SHA-256 of the dashboard's files (paths and contents) and of the lock file: what a build depends on. */
export async function dashboardSourceStamp(root) {
  const hash = createHash('sha256');
  const files = [];
  for await (const file of filesUnder(path.join(root, 'apps', 'dashboard'))) files.push(file);
  files.sort();
  for (const file of [...files, path.join(root, 'package-lock.json')]) {
    hash.update(path.relative(root, file)).update('\0').update(await readFile(file)).update('\0');
  }
  return hash.digest('hex');
}

/**
 * Vite build of apps/dashboard into dist/dashboard, skipped when the stamp
 * matches the last build's (dist/.dashboard-build-stamp) and the build is
 * there: a start after the first build costs a hash of a few dozen files.
 */
export async function buildDashboard(root) {
  const outDir = path.join(root, 'dist', 'dashboard');
  const stampFile = path.join(root, 'dist', '.dashboard-build-stamp');
  const stamp = await dashboardSourceStamp(root);
  const previous = await readFile(stampFile, 'utf8').catch(() => '');
  const built = await readFile(path.join(outDir, 'index.html')).then(() => true, () => false);
  if (previous === stamp && built) return false;
  const started = Date.now();
  console.log('dashboard: building apps/dashboard into dist/dashboard (only when its sources change) …');
  const { build } = await import('vite');
  await build({ configFile: path.join(root, 'apps', 'dashboard', 'vite.config.ts'), logLevel: 'warn', mode: 'production' });
  await writeFile(stampFile, stamp);
  console.log(`dashboard: built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildDashboard(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'));
}

// Transpiles apps/, libs/, test/ and bench/ to dist/ with swc (type checking is
// `npm run typecheck`), so `npm start` is ready in a second or two; then
// builds the dashboard (apps/dashboard, Vite) into dist/dashboard when its
// sources changed since its last build (docs/dashboard.md).
import { createRequire } from 'node:module';
import { mkdir, writeFile, cp } from 'node:fs/promises';
import path from 'node:path';
import { buildDashboard } from './build-dashboard.mjs';
import { filesUnder } from './files-under.mjs';

const require = createRequire(import.meta.url);
const swc = require('@swc/core');
const { root, options } = require('./swc-options.cjs');

const sourceDirs = ['apps', 'libs', 'test', 'bench'];
const copyExtensions = new Set(['.sql', '.lua', '.json', '.yaml', '.yml']);
// A browser app with a bundler of its own, built below.
const dashboardDir = path.join(root, 'apps', 'dashboard');

const jobs = [];
for (const dir of sourceDirs) {
  for await (const file of filesUnder(path.join(root, dir), [dashboardDir])) {
    const rel = path.relative(root, file);
    const ext = path.extname(file);
    if (file.endsWith('.ts') && !file.endsWith('.d.ts')) {
      const out = path.join(root, 'dist', rel.replace(/\.ts$/, '.js'));
      jobs.push(
        swc.transformFile(file, { ...options, filename: file, sourceFileName: file }).then(async (r) => {
          await mkdir(path.dirname(out), { recursive: true });
          await writeFile(out, r.code);
        }),
      );
    } else if (copyExtensions.has(ext)) {
      const out = path.join(root, 'dist', rel);
      jobs.push(mkdir(path.dirname(out), { recursive: true }).then(() => cp(file, out)));
    }
  }
}
await Promise.all(jobs);
await buildDashboard(root);

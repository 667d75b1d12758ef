// Require hook: lets child processes in tests and CLIs run TypeScript sources
// directly (`node -r ./scripts/swc-register.cjs file.ts`), with the same swc
// options and path aliases as the build.
const { transformSync } = require('@swc/core');
const { options } = require('./swc-options.cjs');

require.extensions['.ts'] = function compileTs(module, filename) {
  const { code } = transformSync(require('node:fs').readFileSync(filename, 'utf8'), {
    ...options,
    filename,
    sourceMaps: 'inline',
  });
  module._compile(code, filename);
};

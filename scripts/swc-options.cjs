// One swc configuration for the build and for jest, so both resolve the
// tsconfig path aliases and emit decorator metadata the same way.
const path = require('node:path');
const tsconfig = require('../tsconfig.json');

const root = path.resolve(__dirname, '..');

module.exports = {
  root,
  paths: tsconfig.compilerOptions.paths,
  options: {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
      baseUrl: root,
      paths: tsconfig.compilerOptions.paths,
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
};

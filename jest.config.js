// Three tiers (CONVENTIONS.md): unit specs beside the code, integration specs
// that need engines (*.int-spec.ts), black-box HTTP suites in test/e2e.
// A port's contract suite (*.contract-spec.ts) matches no tier on purpose: it
// runs through the specs of that port's adapters, which import it.
const { root, paths, options } = require('./scripts/swc-options.cjs');

const moduleNameMapper = Object.fromEntries(
  Object.entries(paths).map(([alias, [target]]) => [`^${alias}$`, `<rootDir>/${target}`]),
);
const transform = { '^.+\\.ts$': ['@swc/jest', { ...options, sourceMaps: 'inline', swcrc: false }] };
const common = { rootDir: root, transform, moduleNameMapper, testEnvironment: 'node' };

module.exports = {
  // chDB binds one data directory per process and jest reuses workers across
  // files: a tiny idle-memory limit recycles the worker after every file. The
  // unit tier starts no engine: `npm run test:unit` passes a limit of its own
  // and keeps its workers (about 60 s instead of 135 s on two cores).
  workerIdleMemoryLimit: '1MB',
  // Integration specs drive real engines and a real browser, slower on a busy machine than jest's 5 s default allows (e2e-setup sets its own).
  testTimeout: 60_000,
  globalSetup: '<rootDir>/test/harness/global-setup.ts',
  globalTeardown: '<rootDir>/test/harness/global-teardown.ts',
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs,scripts}/**/*.spec.ts'] },
    { ...common, displayName: 'int', testMatch: ['<rootDir>/{apps,libs,test}/**/*.int-spec.ts'] },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'], setupFilesAfterEnv: ['<rootDir>/test/harness/e2e-setup.ts'] },
  ],
};

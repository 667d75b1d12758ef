// chdb publishes `chdb/connection` through package.json "exports", which the
// repository's `moduleResolution: node` does not read; point the subpath at
// its declarations so the import type-checks as written.
declare module 'chdb/connection' {
  export * from 'chdb/dist/connection';
}

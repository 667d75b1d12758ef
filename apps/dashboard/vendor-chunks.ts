/**
 * The libraries every page runs, each in a chunk of its own beside the app's
 * entry (which index.html preloads with them): the browser fetches and
 * compiles them in parallel instead of one 116 KB script, and keeps them
 * cached across releases that change only the app (issue 42: the first
 * load's JavaScript cost the mobile LCP). The rest of node_modules goes with
 * the pages that import it (TanStack Table, uPlot).
 */
const VENDOR_CHUNKS: readonly (readonly [chunk: string, packages: readonly string[]])[] = [
  ['react', ['react', 'react-dom', 'scheduler']],
  ['router', ['react-router']],
  ['query', ['@tanstack/query-core', '@tanstack/react-query']],
  ['api-client', ['openapi-fetch']],
];

/** The vendor chunk of a module (see VENDOR_CHUNKS), or undefined to let Rollup place it. */
export function vendorChunkOf(id: string): string | undefined {
  const name = /[\\/]node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(id)?.[1]?.replace(/\\/g, '/');
  if (name === undefined) return undefined;
  return VENDOR_CHUNKS.find(([, packages]) => packages.includes(name))?.[0];
}

// Built by scripts/build.mjs into dist/dashboard, served by the public-api app at `/`.

import { describe, expect, it } from 'vitest';
import { vendorChunkOf } from './vendor-chunks';

describe('vendorChunkOf', () => {
  it('puts React, the router, TanStack Query and the API client each in a chunk of its own', () => {
    expect(vendorChunkOf('/repo/node_modules/react-dom/cjs/react-dom-client.production.js')).toBe('react');
    expect(vendorChunkOf('/repo/node_modules/scheduler/index.js')).toBe('react');
    expect(vendorChunkOf('/repo/node_modules/react/jsx-runtime.js')).toBe('react');
    expect(vendorChunkOf('/repo/node_modules/react-router/dist/development/index.mjs')).toBe('router');
    expect(vendorChunkOf('/repo/node_modules/@tanstack/query-core/build/modern/index.js')).toBe('query');
    expect(vendorChunkOf('/repo/node_modules/@tanstack/react-query/build/modern/index.js')).toBe('query');
    expect(vendorChunkOf('C:\\repo\\node_modules\\openapi-fetch\\dist\\index.js')).toBe('api-client');
  });

  it('leaves the app and the libraries of single pages to Rollup', () => {
    expect(vendorChunkOf('/repo/apps/dashboard/src/app.tsx')).toBeUndefined();
    expect(vendorChunkOf('/repo/node_modules/@tanstack/react-table/build/lib/index.mjs')).toBeUndefined();
    expect(vendorChunkOf('/repo/node_modules/uplot/dist/uPlot.esm.js')).toBeUndefined();
    expect(vendorChunkOf('/repo/node_modules/react-router-extra/index.js')).toBeUndefined();
    expect(vendorChunkOf('\0vite/preload-helper.js')).toBeUndefined();
  });
});

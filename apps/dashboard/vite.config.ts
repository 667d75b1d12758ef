import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

const here = fileURLToPath(new URL('.', import.meta.url));

// Built by scripts/build.mjs into dist/dashboard, served by the public-api app at `/`.
export default defineConfig(({ command }) => {
  // A build is always React's production build. Vite takes NODE_ENV from the environment when it is set, and jest
  // (NODE_ENV=test, whose e2e tests build the dashboard) left a development React in dist/dashboard for `npm start`
  // to serve: 3x the JavaScript and renders several times slower. Set here, before Vite resolves `isProduction`,
  // so the JSX transform (plugin-react) and React's own build agree; a build runs in a process of its own.
  if (command === 'build') process.env.NODE_ENV = 'production';
  return {
    root: here,
    base: '/',
    plugins: [react()],
    // The public API during `npx vite` development: run `npm start` beside it.
    server: { proxy: { '/api': 'http://127.0.0.1:3000', '/exports': 'http://127.0.0.1:3000' } },
    build: {
      outDir: path.resolve(here, '../../dist/dashboard'),
      emptyOutDir: true,
      target: 'es2022',
      // No inline scripts or data: URLs: the page's Content-Security-Policy allows 'self' only.
      assetsInlineLimit: 0,
      modulePreload: { polyfill: false },
      reportCompressedSize: false,
    },
    test: {
      environment: 'jsdom',
      include: ['src/**/*.test.{ts,tsx}'],
      root: here,
    },
  };
});

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

const here = fileURLToPath(new URL('.', import.meta.url));

// Built by scripts/build.mjs into dist/dashboard, served by the public-api app at `/`.
export default defineConfig({
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
});

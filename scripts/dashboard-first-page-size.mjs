// The JavaScript a browser loads for the dashboard's first page, gzipped:
// the scripts and module preloads index.html names (route chunks load later).
// Issue 30's budget is 250 KB. `node scripts/dashboard-first-page-size.mjs`
// prints it for dist/dashboard (build first); `--json` prints {files, gzipBytes}
// (the bench reads that).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export async function firstPageJs(distDir) {
  const html = await readFile(path.join(distDir, 'index.html'), 'utf8');
  const urls = [...html.matchAll(/<script[^>]*\bsrc="([^"]+\.js)"|<link[^>]*rel="modulepreload"[^>]*href="([^"]+\.js)"/g)].map((m) => m[1] ?? m[2]);
  const files = [];
  for (const url of urls) {
    const bytes = await readFile(path.join(distDir, url.replace(/^\//, '')));
    files.push({ url, bytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length });
  }
  return { files, gzipBytes: files.reduce((sum, f) => sum + f.gzipBytes, 0) };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'dashboard');
  const { files, gzipBytes } = await firstPageJs(dist);
  if (process.argv.includes('--json')) console.log(JSON.stringify({ files, gzipBytes }));
  else {
    for (const f of files) console.log(`${f.url}: ${(f.bytes / 1024).toFixed(1)} KB, ${(f.gzipBytes / 1024).toFixed(1)} KB gzipped`);
    console.log(`first page JavaScript: ${(gzipBytes / 1024).toFixed(1)} KB gzipped (budget 250 KB)`);
  }
}

import { deflateSync } from 'node:zlib';
import { crc32 } from '@node-rs/crc32';

/**
 * The content of the `render` bench's origin: 200 pages shaped like a
 * JavaScript-built product page (a stylesheet, images, a deferred script that
 * fetches the page's JSON and builds the markup). Pure functions, so the
 * origin can build every answer before it reports ready.
 */

export const PAGE_COUNT = 200;
export const IMAGES_PER_PAGE = 4;
/** How long the origin holds `/api/item/<n>.json`, as a real API would. */
export const API_DELAY_MS = 150;

/** The text only the page's script writes (from the JSON): the content check looks for it between tags. */
export const pageToken = (n: number): string => `rendered-item-${n}`;
/** What a correct render contains: the token as an element's whole text. */
export const tokenMarkup = (n: number): string => `>${pageToken(n)}<`;

const WORDS = 'alpha beta gamma delta sturdy compact wireless premium organic classic modern rugged silent rapid bright gentle'.split(' ');

/** A deterministic word sequence (so every run serves the same bytes). */
function words(seed: number, count: number): string {
  return Array.from({ length: count }, (_, i) => WORDS[(seed * 7 + i * 13 + ((seed * i) % 11)) % WORDS.length]).join(' ');
}

/** The static HTML of page `n` (~12 KB): navigation, an empty app root, images, footer; the token is not in it. */
export function pageHtml(n: number): string {
  const nav = Array.from({ length: 40 }, (_, i) => `<li><a href="/p/${(n + i + 1) % PAGE_COUNT}">${words(n + i, 2)}</a></li>`).join('');
  const images = Array.from({ length: IMAGES_PER_PAGE }, (_, k) => `<img src="/img/${n}-${k}.png" width="40" height="32" alt="${words(n + k, 3)}">`).join('');
  const footer = Array.from({ length: 60 }, (_, i) => `<li><a href="/help/${i}">${words(i, 3)}</a></li>`).join('');
  const jsonLd = JSON.stringify({ '@context': 'https://schema.org', '@type': 'Product', sku: `SKU-${n}`, brand: 'Bench', description: words(n, 30) });
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Product ${n} — Bench Store</title><meta name="description" content="${words(n, 20)}">
<link rel="stylesheet" href="/style.css">
<script type="application/ld+json">${jsonLd}</script>
<script>window.__ITEM_ID__ = ${n};</script>
<script src="/static/app.js" defer></script>
</head><body>
<header class="site-header"><a class="logo" href="/">Bench Store</a><nav><ul class="nav">${nav}</ul></nav></header>
<div class="gallery">${images}</div>
<main id="app"><p class="loading">Loading…</p></main>
<aside class="promo"><h2>${words(n, 4)}</h2><p>${words(n + 1, 60)}</p><p>${words(n + 2, 60)}</p></aside>
<footer class="site-footer"><ul>${footer}</ul><p>${words(n + 3, 40)}</p></footer>
</body></html>`;
}

/** A stylesheet of a few KB: layout, typography and component rules. */
export function stylesheet(): string {
  const components = Array.from(
    { length: 60 },
    (_, i) => `.c-${i} { margin: ${i % 8}px ${i % 5}px; padding: ${i % 6}px; color: #${(0x223344 + i * 0x010203).toString(16).slice(-6)}; border-radius: ${i % 4}px; }`,
  ).join('\n');
  return `*, *::before, *::after { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, sans-serif; color: #222; background: #fafafa; }
.site-header { display: flex; align-items: center; gap: 24px; padding: 12px 24px; background: #123; color: #fff; }
.site-header .nav { display: flex; flex-wrap: wrap; gap: 8px; list-style: none; margin: 0; padding: 0; }
.site-header a { color: #cde; text-decoration: none; }
.gallery { display: grid; grid-template-columns: repeat(4, 1fr); gap: 8px; padding: 16px 24px; }
main { max-width: 960px; margin: 0 auto; padding: 24px; }
main h1 { font-size: 2rem; margin: 0 0 16px; }
.features { display: grid; grid-template-columns: repeat(auto-fill, minmax(220px, 1fr)); gap: 12px; list-style: none; padding: 0; }
.features li { background: #fff; border: 1px solid #ddd; border-radius: 6px; padding: 12px; }
.promo { max-width: 960px; margin: 0 auto; padding: 24px; background: #eef; }
.site-footer { padding: 24px; background: #222; color: #aaa; columns: 4; }
.site-footer a { color: #bbb; }
${components}
`;
}

/**
 * The app bundle (~30 KB, the same for every page): helpers and a strings
 * table a real bundle would carry, then the code that fetches the page's JSON
 * after DOMContentLoaded and builds the markup with DOM calls.
 */
export function appScript(): string {
  const strings = Array.from({ length: 300 }, (_, i) => `  "s${i}": ${JSON.stringify(words(i, 6))}`).join(',\n');
  const formatters = Array.from({ length: 120 }, (_, i) => `function fmt${i}(v) { var s = String(v); return s.length > ${i % 17} ? s.slice(0, ${(i % 17) + 3}) + '${i % 2 ? '…' : ''}' : s; }`).join('\n');
  return `(function () {
'use strict';
var STRINGS = {
${strings}
};
${formatters}
var FORMATTERS = [${Array.from({ length: 120 }, (_, i) => `fmt${i}`).join(', ')}];
function el(tag, attrs, text) {
  var node = document.createElement(tag);
  for (var key in attrs) node.setAttribute(key, attrs[key]);
  if (text !== undefined) node.textContent = text;
  return node;
}
function render(item) {
  var app = document.getElementById('app');
  app.textContent = '';
  app.appendChild(el('h1', { class: 'title' }, item.title));
  app.appendChild(el('p', { class: 'token', 'data-sku': item.sku }, item.token));
  app.appendChild(el('p', { class: 'price' }, STRINGS.s1 + ' ' + item.price.toFixed(2) + ' EUR'));
  var list = el('ul', { class: 'features' });
  item.features.forEach(function (feature, i) {
    var li = el('li', { class: 'c-' + (i % 60) });
    li.appendChild(el('a', { href: feature.href }, FORMATTERS[i % FORMATTERS.length](feature.name)));
    li.appendChild(el('span', {}, ' ' + feature.text));
    list.appendChild(li);
  });
  app.appendChild(list);
  item.paragraphs.forEach(function (text) { app.appendChild(el('p', {}, text)); });
}
document.addEventListener('DOMContentLoaded', function () {
  fetch('/api/item/' + window.__ITEM_ID__ + '.json')
    .then(function (answer) { return answer.json(); })
    .then(render);
});
})();
`;
}

/** Page `n`'s API answer (~8 KB): the title, the token, 60 features with links and 20 paragraphs. */
export function itemJson(n: number): string {
  return JSON.stringify({
    id: n,
    sku: `SKU-${n}`,
    title: `Product ${n}: ${words(n, 4)}`,
    token: pageToken(n),
    price: 10 + ((n * 37) % 500) / 7,
    features: Array.from({ length: 60 }, (_, i) => ({ name: words(n + i, 2), href: `/p/${(n * 3 + i) % PAGE_COUNT}#f${i}`, text: words(n * i + 1, 8) })),
    paragraphs: Array.from({ length: 20 }, (_, i) => words(n + i * 5, 25)),
  });
}

/** A PNG chunk: length, type, data, CRC-32 of type and data. */
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData) >>> 0);
  return Buffer.concat([length, typeAndData, crc]);
}

/** A real 40×32 RGB PNG of deterministic noise over a gradient (~4 KB: noise does not compress), distinct per seed. */
export function pngImage(seed: number): Buffer {
  const width = 40;
  const height = 32;
  let state = (seed * 2_654_435_761) >>> 0 || 1;
  const next = (): number => {
    state = (state * 1_103_515_245 + 12_345) >>> 0;
    return state >>> 24;
  };
  const raw = Buffer.alloc(height * (1 + width * 3));
  for (let y = 0; y < height; y += 1) {
    const row = y * (1 + width * 3);
    raw[row] = 0; // filter type: none
    for (let x = 0; x < width; x += 1) {
      const at = row + 1 + x * 3;
      raw[at] = (x * 6 + next()) & 0xff;
      raw[at + 1] = (y * 8 + next()) & 0xff;
      raw[at + 2] = (seed + next()) & 0xff;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits per channel, truecolour, deflate, no filter method, no interlace
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, pngChunk('IHDR', header), pngChunk('IDAT', deflateSync(raw)), pngChunk('IEND', Buffer.alloc(0))]);
}

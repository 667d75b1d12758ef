// Reads the tables bench/compare-node.sh saved (pinned-<n>.md, other-<n>.md)
// and prints each figure's median on both Node versions and their ratio.
import { readFileSync } from 'node:fs';
import path from 'node:path';

const [dir, rounds] = process.argv.slice(2);

/** benchmark name → value (the number before its unit) of one saved table. */
function figures(file) {
  const rows = new Map();
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return rows;
  }
  for (const line of text.split('\n').slice(2)) {
    const cells = line.split('|').map((c) => c.trim());
    const value = Number.parseFloat(cells[2]);
    if (cells[1] && Number.isFinite(value)) rows.set(cells[1], { value, unit: cells[2].replace(/^[-\d.e+]+\s*/, '') });
  }
  return rows;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const runs = { pinned: [], other: [] };
for (let round = 1; round <= Number(rounds); round++) {
  for (const side of ['pinned', 'other']) runs[side].push(figures(path.join(dir, `${side}-${round}.md`)));
}
const names = [...new Set(runs.pinned.flatMap((r) => [...r.keys()]))];
const round2 = (n) => (Math.abs(n) >= 100 ? Math.round(n) : Math.round(n * 100) / 100);
console.log('| benchmark | pinned | other | pinned ÷ other |');
console.log('|---|---|---|---|');
for (const name of names) {
  const values = (side) => runs[side].map((r) => r.get(name)?.value).filter((v) => v !== undefined);
  const [p, o] = [values('pinned'), values('other')];
  if (!p.length || !o.length) continue;
  const unit = runs.pinned.find((r) => r.has(name)).get(name).unit;
  const ratio = median(o) === 0 ? '-' : round2(median(p) / median(o));
  console.log(`| ${name} | ${round2(median(p))} ${unit} | ${round2(median(o))} ${unit} | ${ratio} |`);
}

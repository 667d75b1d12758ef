import { performance } from 'node:perf_hooks';
import type { BenchRow, BenchSuite } from './bench-row';
import { suites } from './suites';

function format(rows: readonly BenchRow[]): string {
  const header = ['benchmark', 'value', 'target', 'baseline', 'ratio', 'result'];
  const lines = rows.map((r) => [
    r.name,
    `${round(r.value)} ${r.unit}`,
    r.target || '-',
    r.baseline ? `${r.baseline.name}: ${round(r.baseline.value)} ${r.baseline.unit}` : '-',
    r.ratio === undefined ? '-' : round(r.ratio).toString(),
    r.pass === undefined ? '-' : r.pass ? 'PASS' : 'FAIL',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const row = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [row(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...lines.map(row)].join('\n');
}

function round(n: number): number {
  return Math.abs(n) >= 100 ? Math.round(n) : Math.round(n * 100) / 100;
}

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const selected: readonly BenchSuite[] = only.length ? suites.filter((s) => only.includes(s.name)) : suites;
  const rows: BenchRow[] = [];
  for (const suite of selected) {
    const started = performance.now();
    process.stderr.write(`bench: ${suite.name} …\n`);
    rows.push(...(await suite.run()));
    process.stderr.write(`bench: ${suite.name} done in ${Math.round(performance.now() - started)} ms\n`);
  }
  process.stdout.write(`${format(rows)}\n`);
  if (rows.some((r) => r.pass === false)) process.exitCode = 1;
}

main().catch((error) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});

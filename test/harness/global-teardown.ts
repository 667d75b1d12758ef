import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { RunningEngine } from './engines';
import { EVENT_AUDIT_DIR_ENV, eventAuditSummary } from './event-audit';

export default async function globalTeardown(): Promise<void> {
  const engines = ((globalThis as Record<string, unknown>).__BPC_ENGINES__ ?? []) as RunningEngine[];
  await Promise.all(engines.map((e) => e.stop()));
  reportEventAudit();
}

/** Prints how many events the e2e suites produced and ajv validated, per type and mode, and keeps it in `.tmp/event-audit.json`. */
function reportEventAudit(): void {
  const dir = process.env[EVENT_AUDIT_DIR_ENV];
  if (!dir) return;
  const summary = [...eventAuditSummary(dir)].sort(([a], [b]) => a.localeCompare(b));
  rmSync(dir, { recursive: true, force: true });
  if (summary.length === 0) return;
  const total = summary.reduce((sum, [, row]) => ({ 'file log': sum['file log'] + row['file log'], kafka: sum.kafka + row.kafka }), { 'file log': 0, kafka: 0 });
  const lines = summary.map(([type, row]) => `  ${type.padEnd(30)} ${String(row['file log']).padStart(9)} ${String(row.kafka).padStart(9)}`);
  console.log(['', 'events validated against deploy/event-schemas (ajv):', `  ${'type'.padEnd(30)} ${'file log'.padStart(9)} ${'kafka'.padStart(9)}`, ...lines, `  ${'total'.padEnd(30)} ${String(total['file log']).padStart(9)} ${String(total.kafka).padStart(9)}`].join('\n'));
  const out = path.resolve(__dirname, '..', '..', '.tmp');
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, 'event-audit.json'), `${JSON.stringify(Object.fromEntries(summary), null, 2)}\n`);
}

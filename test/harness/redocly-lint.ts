import { execFile } from 'node:child_process';
import path from 'node:path';

export interface LintProblem {
  readonly ruleId: string;
  readonly severity: 'error' | 'warn';
  readonly message: string;
  readonly pointer: string;
}

/**
 * Lints an OpenAPI document with the Redocly CLI (`redocly lint`, its
 * recommended rules unless a redocly.yaml says otherwise), offline: no
 * telemetry, no update check. Resolves with every problem it reports.
 */
export function redoclyLint(document: string): Promise<LintProblem[]> {
  const cli = path.join(path.dirname(require.resolve('@redocly/cli/package.json')), 'bin', 'cli.js');
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
  return new Promise((resolve, reject) => {
    // Exit code 1 means "errors found": the report on stdout still tells which.
    execFile(process.execPath, [cli, 'lint', '--format=json', document], { env, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      try {
        const report = JSON.parse(stdout) as { problems: { ruleId: string; severity: LintProblem['severity']; message: string; location: { pointer: string }[] }[] };
        resolve(report.problems.map((p) => ({ ruleId: p.ruleId, severity: p.severity, message: p.message, pointer: p.location[0]?.pointer ?? '' })));
      } catch {
        reject(new Error(`redocly lint ${document} gave no report: ${error?.message ?? ''}\n${stderr}`));
      }
    });
  });
}

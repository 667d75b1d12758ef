import { execFileSync } from 'node:child_process';

const REQUIRED = [
  { bin: 'redis-server', pkg: 'redis-server' },
  { bin: 'kcat', pkg: 'kcat' },
];

function hasBinary(bin: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${bin}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Fails the run with the exact packages to install when an engine binary is missing. */
export function ensureTestTools(): void {
  const missing = REQUIRED.filter((t) => !hasBinary(t.bin));
  if (missing.length > 0) {
    throw new Error(`missing test engines: install them with: apt-get install -y ${missing.map((m) => m.pkg).join(' ')}`);
  }
}

import { readdirSync, readFileSync } from 'node:fs';

/**
 * A process and its descendants as Linux's /proc shows them, for the
 * `render` bench's CPU and memory figures of a browser's whole tree.
 */

/** One process's /proc/<pid>/stat figures, in clock ticks. */
export interface ProcessTimes {
  readonly pid: number;
  readonly ppid: number;
  /** utime + stime: the process's own CPU (every thread). */
  readonly ownTicks: number;
  /** cutime + cstime: its children's CPU, once it has reaped them. */
  readonly reapedTicks: number;
}

/** `/proc/<pid>/stat` parsed, or undefined when the process is gone. */
export function processTimes(pid: number): ProcessTimes | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) may hold spaces and parentheses: the fields after it start past its last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const at = (field: number): number => Number(fields[field - 3]);
  return { pid, ppid: at(4), ownTicks: at(14) + at(15), reapedTicks: at(16) + at(17) };
}

/** `root` and every process descended from it (ppid links over every /proc/<pid>/stat), root first; empty when root is gone. */
export function processTree(root: number): ProcessTimes[] {
  const all = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => processTimes(Number(name)))
    .filter((p): p is ProcessTimes => p !== undefined);
  const childrenOf = new Map<number, ProcessTimes[]>();
  for (const p of all) childrenOf.set(p.ppid, [...(childrenOf.get(p.ppid) ?? []), p]);
  const rootTimes = all.find((p) => p.pid === root);
  if (!rootTimes) return [];
  const tree = [rootTimes];
  for (let i = 0; i < tree.length; i += 1) tree.push(...(childrenOf.get(tree[i].pid) ?? []));
  return tree;
}

/**
 * CPU ticks the tree has used so far: each live (or zombie) process's own
 * time plus the time of the children it has reaped. A process that exits is
 * counted by itself until its parent reaps it, then in its parent's
 * reaped time (Chromium's zygote reaps its renderers), so a sum taken at any
 * instant neither loses nor doubles it, as long as its parent is in the tree.
 */
export function treeTicks(tree: readonly ProcessTimes[]): number {
  return tree.reduce((sum, p) => sum + p.ownTicks + p.reapedTicks, 0);
}

export type MemoryMeasure = 'Pss' | 'RSS';

/** A process's memory: its proportional set size (shared pages split among their users), or its RSS where smaps_rollup is unreadable; undefined once it is gone. */
export function processMemory(pid: number, pageSize: number): { bytes: number; measure: MemoryMeasure } | undefined {
  let rollup: string;
  try {
    rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  } catch (error) {
    // Gone (ENOENT), or a zombie with no memory left (ESRCH).
    if (['ENOENT', 'ESRCH'].includes((error as NodeJS.ErrnoException).code ?? '')) return undefined;
    return residentSetSize(pid, pageSize);
  }
  const pss = /^Pss:\s+(\d+) kB$/m.exec(rollup);
  return pss ? { bytes: Number(pss[1]) * 1024, measure: 'Pss' } : residentSetSize(pid, pageSize);
}

/** RSS from /proc/<pid>/statm (in pages), for kernels without smaps_rollup (before 4.14). */
function residentSetSize(pid: number, pageSize: number): { bytes: number; measure: MemoryMeasure } | undefined {
  try {
    return { bytes: Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * pageSize, measure: 'RSS' };
  } catch {
    return undefined;
  }
}

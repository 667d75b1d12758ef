import { execFileSync } from 'node:child_process';
import { processMemory, processTree, treeTicks, type MemoryMeasure } from './process-tree';

/**
 * Samples a process tree (the pid in argv[2]) from a child process of the
 * `render` bench, so that reading /proc (smaps_rollup walks every mapping
 * of every process) is not counted as the bench's own CPU. At start it takes
 * the tree's CPU time and sends `started`; every `SAMPLE_MS` it sums the
 * tree's memory; on `stop` it answers with a `TreeUsage` and exits.
 */

/** What the sampler reports over IPC when stopped. */
export interface TreeUsage {
  /** CPU seconds the tree used between start and stop (see `treeTicks`). */
  readonly cpuSeconds: number;
  /** The highest sum of the tree's memory seen in one sample. */
  readonly peakMemoryBytes: number;
  /** Pss when every process's smaps_rollup was readable, else RSS (in some sample). */
  readonly memoryMeasure: MemoryMeasure;
  /** The most processes the tree had in one sample. */
  readonly peakProcesses: number;
  readonly samples: number;
}

export type SamplerMessage = { readonly kind: 'started' } | ({ readonly kind: 'stopped' } & TreeUsage);

const SAMPLE_MS = 100;
const getconf = (name: string): number => Number(execFileSync('getconf', [name], { encoding: 'utf8' }).trim());
const ticksPerSecond = getconf('CLK_TCK');
const pageSize = getconf('PAGESIZE');
const root = Number(process.argv[2]);

let peakMemoryBytes = 0;
let peakProcesses = 0;
let memoryMeasure: MemoryMeasure = 'Pss';
let samples = 0;

function sampleMemory(): void {
  const tree = processTree(root);
  const memories = tree.map((p) => processMemory(p.pid, pageSize)).filter((m) => m !== undefined);
  if (memories.some((m) => m.measure === 'RSS')) memoryMeasure = 'RSS';
  peakMemoryBytes = Math.max(peakMemoryBytes, memories.reduce((sum, m) => sum + m.bytes, 0));
  peakProcesses = Math.max(peakProcesses, tree.length);
  samples += 1;
}

const startTicks = treeTicks(processTree(root));
sampleMemory();
const timer = setInterval(sampleMemory, SAMPLE_MS);
process.send?.({ kind: 'started' } satisfies SamplerMessage);
process.once('message', () => {
  clearInterval(timer);
  sampleMemory();
  const cpuSeconds = (treeTicks(processTree(root)) - startTicks) / ticksPerSecond;
  process.send?.({ kind: 'stopped', cpuSeconds, peakMemoryBytes, memoryMeasure, peakProcesses, samples } satisfies SamplerMessage, () => process.exit(0));
});
process.once('disconnect', () => process.exit(0));

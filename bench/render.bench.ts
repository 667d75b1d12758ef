import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { BenchRow, BenchSuite } from './bench-row';
import { forkBenchScript, nextMessage, stopChild } from './forked-child';
import type { SamplerMessage, TreeUsage } from './process-tree-sampler';
import { ourRenderer, plainChromium, type RenderContestant } from './render-contestants';
import { PAGE_COUNT, tokenMarkup } from './render-pages';
import { percentile } from './stats';

/**
 * Issue 33's renderer targets: our renderer (`CachingPageRefresher` on a
 * `ChromiumTabPool`) against a plain Chromium render (fresh incognito
 * context, `goto` until network-idle, `content()`) in one run, both on the
 * same local origin (a child process, see render-origin.ts) with the same
 * tab count. Each gets a browser of its own, warmed up, then measured in
 * alternating phases (plain single, ours single, plain loaded, ours loaded)
 * so a drift of the host's speed favours neither:
 *
 * - single: one render at a time, latency p50 and p95;
 * - loaded: `TABS` renders at once over distinct pages: renders per second,
 *   latency p95, CPU seconds per render (the browser's whole process tree,
 *   read from /proc by a sampler child process, plus this process's own,
 *   which drives the browser and, for ours, runs the egress proxy and the
 *   store), and the peak memory of the browser's tree.
 *
 * Every output is then checked for the text the page's script builds.
 */

const TABS = 4;
const WARMUP_PAGES = range(PAGE_COUNT - TABS, TABS);
const SINGLE_PAGES = range(0, 30);
const LOADED_PAGES = range(30, 100);
/** Pages of the facts A/B (neither contestant rendered them before): each round renders them all, so later rounds replace entries as recaches do. */
const FACTS_AB_PAGES = range(100, 60);
const FACTS_AB_ROUNDS = 4;

function range(from: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => from + i);
}

interface Phase {
  readonly latenciesMs: readonly number[];
  readonly wallMs: number;
  /** Pages whose render failed, with the reason. */
  readonly failures: ReadonlyMap<number, string>;
  readonly tree: TreeUsage;
  /** CPU seconds of this process (every thread) during the phase. */
  readonly benchCpuSeconds: number;
  /** The host's 1-minute load average when the phase ended (other processes' included): how busy the machine was. */
  readonly hostLoad: number;
}

/** Renders `pages` with `concurrency` renders at once (each worker takes the next page when its render ends). */
async function renderAll(contestant: RenderContestant, pages: readonly number[], concurrency: number): Promise<Pick<Phase, 'latenciesMs' | 'wallMs' | 'failures'>> {
  const queue = [...pages];
  const latenciesMs: number[] = [];
  const failures = new Map<number, string>();
  const started = performance.now();
  const worker = async (): Promise<void> => {
    for (let n = queue.shift(); n !== undefined; n = queue.shift()) {
      const renderStarted = performance.now();
      const failure = await contestant.render(n);
      latenciesMs.push(performance.now() - renderStarted);
      if (failure !== undefined) failures.set(n, failure);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { latenciesMs, wallMs: performance.now() - started, failures };
}

/** `renderAll` with the browser tree sampled (CPU, memory) and this process's CPU read around it. */
async function measurePhase(contestant: RenderContestant, pages: readonly number[], concurrency: number): Promise<Phase> {
  const pid = contestant.browserPid();
  if (pid === undefined) throw new Error(`${contestant.name}: no browser running after the warm-up`);
  const sampler = forkBenchScript('process-tree-sampler', [String(pid)]);
  try {
    await nextMessage<SamplerMessage>(sampler);
    const cpuBefore = process.cpuUsage();
    const rendered = await renderAll(contestant, pages, concurrency);
    const cpu = process.cpuUsage(cpuBefore);
    const stopped = nextMessage<SamplerMessage>(sampler);
    sampler.send('stop');
    const tree = await stopped;
    if (tree.kind !== 'stopped') throw new Error(`process tree sampler: unexpected ${tree.kind}`);
    // A browser that crashed and was restarted mid-phase was not the tree sampled.
    if (contestant.browserPid() !== pid) throw new Error(`${contestant.name}: the browser changed during the phase (${pid} → ${contestant.browserPid()})`);
    return { ...rendered, tree, benchCpuSeconds: (cpu.user + cpu.system) / 1e6, hostLoad: loadavg()[0] };
  } finally {
    await stopChild(sampler);
  }
}

/** Pages whose render failed or whose output lacks the text its script builds. */
async function contentMisses(contestant: RenderContestant, pages: readonly number[]): Promise<number[]> {
  const misses: number[] = [];
  for (const n of pages) if (!(await contestant.output(n))?.includes(tokenMarkup(n))) misses.push(n);
  return misses;
}

interface Measured {
  readonly single: Phase;
  readonly loaded: Phase;
  readonly misses: readonly number[];
}

const cpuPerRender = (p: Phase): number => (p.tree.cpuSeconds + p.benchCpuSeconds) / p.latenciesMs.length;
const rendersPerSecond = (p: Phase): number => p.latenciesMs.length / (p.wallMs / 1000);
const seconds = (ms: number): number => ms / 1000;
const mib = (bytes: number): number => bytes / (1024 * 1024);

/** A row of ours against plain: ours as the value, plain as the baseline, ours ÷ plain as the ratio, judged when a target bound is given. */
function versus(name: string, unit: string, pick: (m: Measured) => number, ours: Measured, plain: Measured, target?: { readonly text: string; readonly holds: (ratio: number) => boolean }): BenchRow {
  const ratio = pick(ours) / pick(plain);
  return {
    name,
    value: pick(ours),
    unit,
    target: target?.text ?? '',
    pass: target?.holds(ratio),
    baseline: { name: 'plain Chromium', value: pick(plain), unit },
    ratio,
  };
}

function rows(ours: Measured, plain: Measured): BenchRow[] {
  const load = `${TABS} at once, ${LOADED_PAGES.length} pages`;
  const single = `one at a time, ${SINGLE_PAGES.length} pages`;
  const failuresOf = (m: Measured) => [...m.single.failures, ...m.loaded.failures].map(([n, reason]) => `/p/${n}: ${reason}`);
  const checked = WARMUP_PAGES.length + SINGLE_PAGES.length + LOADED_PAGES.length;
  const oursFailures = failuresOf(ours);
  const loads = [plain.single, ours.single, plain.loaded, ours.loaded].map((p) => p.hostLoad);
  return [
    versus(`render: CPU per render (${load}; browser process tree + bench process)`, 'CPU s', (m) => cpuPerRender(m.loaded), ours, plain, { text: '<= 0.5 × plain', holds: (r) => r <= 0.5 }),
    versus(`render: renders per second (${load})`, 'renders/s', (m) => rendersPerSecond(m.loaded), ours, plain, { text: '>= 1.8 × plain', holds: (r) => r >= 1.8 }),
    versus(`render: latency p50 (${single})`, 's', (m) => seconds(percentile(m.single.latenciesMs, 50)), ours, plain, { text: '<= 0.8 × plain', holds: (r) => r <= 0.8 }),
    versus(`render: latency p95 under load (${load})`, 's', (m) => seconds(percentile(m.loaded.latenciesMs, 95)), ours, plain, { text: '<= 1.0 × plain', holds: (r) => r <= 1 }),
    versus(`render: latency p95 (${single})`, 's', (m) => seconds(percentile(m.single.latenciesMs, 95)), ours, plain),
    versus(`render: latency p50 under load (${load})`, 's', (m) => seconds(percentile(m.loaded.latenciesMs, 50)), ours, plain),
    versus(`render: CPU per render, browser process tree only (${load})`, 'CPU s', (m) => m.loaded.tree.cpuSeconds / m.loaded.latenciesMs.length, ours, plain),
    versus(`render: CPU per render, bench process only (${load}; ours: puppeteer, egress proxy, cache store)`, 'CPU s', (m) => m.loaded.benchCpuSeconds / m.loaded.latenciesMs.length, ours, plain),
    versus(`render: CPU per render (${single}; browser process tree + bench process)`, 'CPU s', (m) => cpuPerRender(m.single), ours, plain),
    versus(
      `render: peak memory of the browser process tree (${load}; sum of ${ours.loaded.tree.memoryMeasure === 'Pss' && plain.loaded.tree.memoryMeasure === 'Pss' ? 'Pss' : 'RSS'}, every 100 ms; peak processes ${ours.loaded.tree.peakProcesses} vs ${plain.loaded.tree.peakProcesses})`,
      'MiB',
      (m) => mib(m.loaded.tree.peakMemoryBytes),
      ours,
      plain,
    ),
    {
      name: `render: outputs without the page's script-built content, of ${checked} (warm-up included)${oursFailures.length ? `; ours failed ${oursFailures.slice(0, 3).join('; ')}` : ''}`,
      value: ours.misses.length,
      unit: 'pages',
      target: '= 0',
      pass: ours.misses.length === 0,
      baseline: { name: 'plain Chromium', value: plain.misses.length, unit: 'pages' },
    },
    {
      name: `render: host load average (1 min) at the end of each phase, in run order: ${loads.map((l) => l.toFixed(1)).join(' / ')} (on ${availableParallelism()} cores); the highest`,
      value: Math.max(...loads),
      unit: 'runnable',
      target: '',
    },
  ];
}

/** The bench origin (render-origin.ts) in a child process; resolves with its URL. */
async function startOrigin(): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = forkBenchScript('render-origin');
  try {
    const { url } = await nextMessage<{ url: string }>(child);
    return { url, stop: () => stopChild(child) };
  } catch (error) {
    await stopChild(child);
    throw error;
  }
}

/**
 * Issue 43's paired A/B: our renderer reading each page's facts against the
 * same renderer given constant facts (both started afresh), `TABS` at once over the same pages, in
 * ABBA order (off, on, on, off, off, on, on, off) so a drift of the host's speed favours
 * neither. What reading facts may add: 5 % CPU per render, 5 % latency.
 * `BENCH_RENDER_FACTS_AB=0` leaves it out (it adds a browser and
 * 4 × 60 renders to the suite).
 */
async function factsAb(originUrl: string, contestants: RenderContestant[]): Promise<BenchRow[]> {
  // Two fresh renderers: one that already rendered the phases above would bring an older browser to the comparison.
  const withFacts = await ourRenderer(originUrl, TABS, 'read');
  contestants.push(withFacts);
  const skipped = await ourRenderer(originUrl, TABS, 'skipped');
  contestants.push(skipped);
  for (const c of [withFacts, skipped]) await renderAll(c, WARMUP_PAGES, TABS);
  const phases = new Map<RenderContestant, Phase[]>([[withFacts, []], [skipped, []]]);
  for (let round = 0; round < FACTS_AB_ROUNDS; round++) {
    for (const c of round % 2 === 0 ? [skipped, withFacts] : [withFacts, skipped]) phases.get(c)!.push(await measurePhase(c, FACTS_AB_PAGES, TABS));
  }
  const sum = (c: RenderContestant, pick: (p: Phase) => number) => phases.get(c)!.reduce((n, p) => n + pick(p), 0);
  const renders = (c: RenderContestant) => sum(c, (p) => p.latenciesMs.length);
  const cpu = (c: RenderContestant) => (sum(c, (p) => p.tree.cpuSeconds) + sum(c, (p) => p.benchCpuSeconds)) / renders(c);
  const benchCpu = (c: RenderContestant) => sum(c, (p) => p.benchCpuSeconds) / renders(c);
  const p50 = (c: RenderContestant) => percentile(phases.get(c)!.flatMap((p) => p.latenciesMs), 50) / 1000;
  const scope = `${TABS} at once, ${FACTS_AB_PAGES.length} pages × ${FACTS_AB_ROUNDS} rounds, ABBA`;
  const row = (name: string, unit: string, of: (c: RenderContestant) => number, target?: { readonly text: string; readonly holds: (ratio: number) => boolean }): BenchRow => {
    const ratio = of(withFacts) / of(skipped);
    return { name, value: of(withFacts), unit, target: target?.text ?? '', pass: target?.holds(ratio), baseline: { name: 'facts skipped', value: of(skipped), unit }, ratio };
  };
  return [
    row(`render facts A/B: CPU per render with facts read (${scope}; browser process tree + bench process)`, 'CPU s', cpu, { text: '<= 1.05 × skipped', holds: (r) => r <= 1.05 }),
    row(`render facts A/B: latency p50 with facts read (${scope})`, 's', p50, { text: '<= 1.05 × skipped', holds: (r) => r <= 1.05 }),
    row(`render facts A/B: CPU per render, bench process only (${scope}; where the facts are read)`, 'CPU s', benchCpu),
    // The facts are read in this process: a difference here is the machine's noise, and says how far to trust the first row.
    row(`render facts A/B: CPU per render, browser process tree only (${scope}; facts play no part there)`, 'CPU s', (c) => sum(c, (p) => p.tree.cpuSeconds) / renders(c)),
  ];
}

export const renderBench: BenchSuite = {
  name: 'render',
  async run(): Promise<BenchRow[]> {
    const origin = await startOrigin();
    const contestants: RenderContestant[] = [];
    try {
      const plain = await plainChromium(origin.url);
      contestants.push(plain);
      const ours = await ourRenderer(origin.url, TABS);
      contestants.push(ours);
      for (const c of contestants) await renderAll(c, WARMUP_PAGES, TABS);
      const plainSingle = await measurePhase(plain, SINGLE_PAGES, 1);
      const oursSingle = await measurePhase(ours, SINGLE_PAGES, 1);
      const plainLoaded = await measurePhase(plain, LOADED_PAGES, TABS);
      const oursLoaded = await measurePhase(ours, LOADED_PAGES, TABS);
      const checked = [...WARMUP_PAGES, ...SINGLE_PAGES, ...LOADED_PAGES];
      const versusPlain = rows(
        { single: oursSingle, loaded: oursLoaded, misses: await contentMisses(ours, checked) },
        { single: plainSingle, loaded: plainLoaded, misses: await contentMisses(plain, checked) },
      );
      if (process.env.BENCH_RENDER_FACTS_AB === '0') return versusPlain;
      // Both browsers are done: closed first, so the A/B's two have the machine.
      for (const c of contestants.splice(0)) await c.close();
      return [...versusPlain, ...(await factsAb(origin.url, contestants))];
    } finally {
      for (const c of contestants) await c.close().catch((error: Error) => process.stderr.write(`render bench: closing ${c.name}: ${error.message}\n`));
      await origin.stop();
    }
  },
};

import { YieldToServing, YieldToServingOptions } from './yield-to-serving';

/** A gate whose saturation and lag the test sets; `pauses` holds each pause's length. */
function gate(overrides: Partial<YieldToServingOptions> = {}) {
  const state = { saturated: true, behind: 0, lagReads: 0 };
  const pauses: number[] = [];
  const yieldToServing = new YieldToServing({
    saturated: () => state.saturated,
    behind: async () => {
      state.lagReads += 1;
      return state.behind;
    },
    maxPauseMs: 300,
    caughtUpAt: 100,
    paused: (ms) => pauses.push(ms),
    ...overrides,
  });
  return { state, pauses, yieldToServing };
}

const running = new AbortController().signal;

async function timed(work: Promise<void>): Promise<number> {
  const started = Date.now();
  await work;
  return Date.now() - started;
}

describe('YieldToServing', () => {
  it('goes on at once while serving is not saturated, without reading the lag', async () => {
    const { state, pauses, yieldToServing } = gate();
    state.saturated = false;
    expect(await timed(yieldToServing.turn(running))).toBeLessThan(100);
    expect(pauses).toEqual([]);
    expect(state.lagReads).toBe(0);
  });

  it('says when a pause begins, and only then', async () => {
    let begun = 0;
    const { state, yieldToServing } = gate({ pausing: () => (begun += 1) });
    state.saturated = false;
    await yieldToServing.turn(running);
    expect(begun).toBe(0);
    state.saturated = true;
    const turn = yieldToServing.turn(running);
    expect(begun).toBe(1);
    await turn;
  });

  it('pauses while serving is saturated, up to the longest pause', async () => {
    const { pauses, yieldToServing } = gate();
    const waited = await timed(yieldToServing.turn(running));
    expect(waited).toBeGreaterThanOrEqual(290);
    expect(waited).toBeLessThan(600);
    expect(pauses).toHaveLength(1);
    expect(pauses[0]).toBeGreaterThanOrEqual(290);
  });

  it('ends a pause within a poll once serving is no longer saturated', async () => {
    const { state, yieldToServing } = gate({ maxPauseMs: 10_000 });
    setTimeout(() => (state.saturated = false), 150);
    const waited = await timed(yieldToServing.turn(running));
    expect(waited).toBeGreaterThanOrEqual(140);
    expect(waited).toBeLessThan(500);
  });

  it('after a pause, catches up while more than caughtUpAt records are left, then may pause again', async () => {
    const { state, pauses, yieldToServing } = gate();
    await yieldToServing.turn(running);
    state.behind = 5_000;
    expect(await timed(yieldToServing.turn(running))).toBeLessThan(100);
    expect(await timed(yieldToServing.turn(running))).toBeLessThan(100);
    expect(pauses).toHaveLength(1);
    state.behind = 100;
    expect(await timed(yieldToServing.turn(running))).toBeGreaterThanOrEqual(290);
    expect(pauses).toHaveLength(2);
  });

  it('catches up when the lag cannot be read', async () => {
    const { pauses, yieldToServing } = gate({ behind: () => Promise.reject(new Error('log unreachable')) });
    await yieldToServing.turn(running);
    expect(await timed(yieldToServing.turn(running))).toBeLessThan(100);
    expect(pauses).toHaveLength(1);
  });

  it('a turn without saturation ends a catch-up: the next saturated turn pauses', async () => {
    const { state, pauses, yieldToServing } = gate();
    await yieldToServing.turn(running);
    state.saturated = false;
    await yieldToServing.turn(running);
    state.saturated = true;
    state.behind = 5_000;
    expect(await timed(yieldToServing.turn(running))).toBeGreaterThanOrEqual(290);
    expect(pauses).toHaveLength(2);
  });

  it('never pauses with a longest pause of 0', async () => {
    const { pauses, yieldToServing } = gate({ maxPauseMs: 0 });
    expect(await timed(yieldToServing.turn(running))).toBeLessThan(100);
    expect(pauses).toEqual([]);
  });

  it('ends a pause when stopping, and does not pause once stopped', async () => {
    const { yieldToServing } = gate({ maxPauseMs: 10_000 });
    const stopping = new AbortController();
    setTimeout(() => stopping.abort(), 100);
    expect(await timed(yieldToServing.turn(stopping.signal))).toBeLessThan(500);
    const { yieldToServing: other } = gate({ maxPauseMs: 10_000 });
    expect(await timed(other.turn(stopping.signal))).toBeLessThan(100);
  });
});

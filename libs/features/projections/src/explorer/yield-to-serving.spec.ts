import { settlesBefore } from '@bpc/testing';
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

/** How long `turn` took; a pause never ends early, however busy the machine, so lower bounds hold (upper ones: `settlesBefore`). */
async function timed(turn: Promise<void>): Promise<number> {
  const started = Date.now();
  await turn;
  return Date.now() - started;
}

/** How often a pause looks whether serving is still saturated (YieldToServing's POLL_MS). */
const POLL_MS = 100;

describe('YieldToServing', () => {
  it('goes on at once while serving is not saturated, without reading the lag', async () => {
    const { state, pauses, yieldToServing } = gate();
    state.saturated = false;
    expect(await settlesBefore(yieldToServing.turn(running), 0)).toBe(true);
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
    const turn = yieldToServing.turn(running);
    expect(await settlesBefore(turn, 300 + POLL_MS)).toBe(true);
    expect(pauses).toHaveLength(1);
    expect(pauses[0]).toBeGreaterThanOrEqual(290);
  });

  it('ends a pause within a poll once serving is no longer saturated', async () => {
    let asked = 0;
    let onePoll: Promise<void> | undefined;
    const { yieldToServing } = gate({
      maxPauseMs: 10_000,
      // Saturated when the pause begins and at its first look, no longer after it: the next look ends the pause.
      saturated: () => {
        asked += 1;
        if (asked === 2) onePoll = new Promise((resolve) => setTimeout(resolve, POLL_MS + 50));
        return asked <= 2;
      },
    });
    const turn = yieldToServing.turn(running);
    // The next look falls due before a timer of one poll and more, set at the first look.
    expect(await Promise.race([turn.then(() => 'turn'), onePoll!.then(() => 'timer')])).toBe('turn');
    expect(asked).toBe(3);
  });

  it('after a pause, catches up while more than caughtUpAt records are left, then may pause again', async () => {
    const { state, pauses, yieldToServing } = gate();
    await yieldToServing.turn(running);
    state.behind = 5_000;
    expect(await settlesBefore(yieldToServing.turn(running), 0)).toBe(true);
    expect(await settlesBefore(yieldToServing.turn(running), 0)).toBe(true);
    expect(pauses).toHaveLength(1);
    state.behind = 100;
    expect(await timed(yieldToServing.turn(running))).toBeGreaterThanOrEqual(290);
    expect(pauses).toHaveLength(2);
  });

  it('catches up when the lag cannot be read', async () => {
    const { pauses, yieldToServing } = gate({ behind: () => Promise.reject(new Error('log unreachable')) });
    await yieldToServing.turn(running);
    expect(await settlesBefore(yieldToServing.turn(running), 0)).toBe(true);
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
    expect(await settlesBefore(yieldToServing.turn(running), 0)).toBe(true);
    expect(pauses).toEqual([]);
  });

  it('ends a pause when stopping, and does not pause once stopped', async () => {
    const { yieldToServing } = gate({ maxPauseMs: 10_000 });
    const stopping = new AbortController();
    const turn = yieldToServing.turn(stopping.signal);
    stopping.abort();
    expect(await settlesBefore(turn, 0)).toBe(true);
    const { yieldToServing: other } = gate({ maxPauseMs: 10_000 });
    expect(await settlesBefore(other.turn(stopping.signal), 0)).toBe(true);
  });
});

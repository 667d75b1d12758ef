import { PageFailure, failureReason, untilAborted } from './fetched-page';

describe('page failures', () => {
  it('reports a timeout when the signal aborted, else the failure or the first line of the error', () => {
    const aborted = AbortSignal.abort();
    const live = new AbortController().signal;
    expect(failureReason(new Error('net::ERR_CONNECTION_REFUSED'), aborted)).toBe('timed out');
    expect(failureReason(new PageFailure('empty render (status 200)'), live)).toBe('empty render (status 200)');
    expect(failureReason(new Error('fetch failed\n    at stack'), live)).toBe('fetch failed');
  });

  it('stops waiting for a step when the signal aborts', async () => {
    const controller = new AbortController();
    const never = new Promise<string>(() => undefined);
    const waiting = untilAborted(never, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toThrow('timed out');
    await expect(untilAborted(Promise.resolve('done'), new AbortController().signal)).resolves.toBe('done');
  });
});

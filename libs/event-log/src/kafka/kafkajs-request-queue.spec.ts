import RequestQueue from 'kafkajs/src/network/requestQueue';

/**
 * The patched request queue (patches/kafkajs+2.2.4.patch): upstream kafkajs
 * 2.2.4 re-armed a timer on every connection each millisecond, forever, even
 * with nothing to send (https://github.com/tulios/kafkajs/issues/1556). An
 * idle queue now holds no timer, and a request held back by the in-flight
 * limit or a broker's throttle is still sent on time.
 */
describe('kafkajs request queue (patched)', () => {
  const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
  let nextId = 0;

  beforeEach(() => jest.useFakeTimers({ now: 1_763_740_000_000 }));
  afterEach(() => jest.useRealTimers());

  function queue(maxInFlightRequests: number | null = null): RequestQueue {
    return new RequestQueue({ maxInFlightRequests, requestTimeout: 30_000, enforceRequestTimeout: false, clientId: 'spec', broker: 'localhost:9092', logger: silent });
  }

  /** Pushes a request that records when it was sent; `answer` fulfils it like a broker's response. */
  function push(q: RequestQueue): { readonly sentAt: () => number | undefined; readonly answer: () => void; readonly answered: Promise<unknown> } {
    const correlationId = (nextId += 1);
    let sentAt: number | undefined;
    const answered = new Promise((resolve, reject) => {
      q.push({ entry: { correlationId, apiKey: 0, apiName: 'Produce', apiVersion: 3, resolve, reject }, expectResponse: true, sendRequest: () => (sentAt = Date.now()) });
    });
    return { sentAt: () => sentAt, answer: () => q.fulfillRequest({ correlationId, payload: null, size: 0 }), answered };
  }

  it('sends a request at once and, once it is answered, holds no timer', async () => {
    const q = queue();
    const request = push(q);
    expect(request.sentAt()).toBe(Date.now());
    request.answer();
    await request.answered;
    expect(jest.getTimerCount()).toBe(0);
    jest.advanceTimersByTime(1_000);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('sends a request held back by the in-flight limit when the one before it is answered', async () => {
    const q = queue(1);
    const first = push(q);
    const second = push(q);
    expect(second.sentAt()).toBeUndefined();
    jest.advanceTimersByTime(5);
    first.answer();
    expect(second.sentAt()).toBe(Date.now());
    second.answer();
    await Promise.all([first.answered, second.answered]);
    expect(q.pending).toHaveLength(0);
    jest.advanceTimersByTime(100);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('sends a request held back by a throttle when the throttle ends, then goes idle', async () => {
    const q = queue();
    const start = Date.now();
    q.maybeThrottle(50);
    const request = push(q);
    expect(request.sentAt()).toBeUndefined();
    jest.advanceTimersByTime(49);
    expect(request.sentAt()).toBeUndefined();
    jest.advanceTimersByTime(1);
    expect(request.sentAt()).toBe(start + 50);
    request.answer();
    await request.answered;
    jest.advanceTimersByTime(1_000);
    expect(jest.getTimerCount()).toBe(0);
  });
});

import { HOST_PAUSE_MS, pauseDeadline, toUnixSeconds } from './host-pause';
import { resolvePurgePriorities } from './purge-priorities';

describe('purge priorities', () => {
  it('given none or an empty list, purges high and normal only', () => {
    expect(resolvePurgePriorities(undefined)).toEqual(['high', 'normal']);
    expect(resolvePurgePriorities([])).toEqual(['high', 'normal']);
  });

  it('given named priorities, purges each once, autorecache only when named', () => {
    expect(resolvePurgePriorities(['normal', 'normal', 'high'])).toEqual(['high', 'normal']);
    expect(resolvePurgePriorities(['autorecache'])).toEqual(['autorecache']);
  });
});

describe('host pause', () => {
  it('lasts exactly three hours from now', () => {
    expect(pauseDeadline(1_000)).toBe(1_000 + 3 * 3600 * 1000);
    expect(HOST_PAUSE_MS).toBe(10_800_000);
  });

  it('reports the deadline in unix seconds', () => {
    expect(toUnixSeconds(1_700_000_000_999)).toBe(1_700_000_000);
  });
});

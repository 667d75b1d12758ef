import { AppError } from '@bpc/domain';
import { PATTERN_WALKS_PER_HOST, PatternWalks } from './pattern-walks';

describe('pattern walks per host', () => {
  const pattern = { urlFilter: () => true };

  it(`runs ${PATTERN_WALKS_PER_HOST} at once per host, refuses the next with EXPLORER_BUSY and Retry-After, and frees the place when one ends`, async () => {
    const walks = new PatternWalks();
    const ends: (() => void)[] = [];
    const held = Array.from({ length: PATTERN_WALKS_PER_HOST }, () => walks.run(1, pattern, () => new Promise<void>((resolve) => ends.push(resolve))));
    await expect(walks.run(1, pattern, async () => 'walked')).rejects.toMatchObject({ code: 'EXPLORER_BUSY', retryAfterS: 1 });
    await expect(walks.run(1, pattern, async () => 'walked')).rejects.toBeInstanceOf(AppError);
    // Another host, and a prefix-only listing of the same host, are not held up.
    await expect(walks.run(2, pattern, async () => 'other host')).resolves.toBe('other host');
    await expect(walks.run(1, { urlPrefix: 'https://www.example.com/a' }, async () => 'range read')).resolves.toBe('range read');
    ends[0]();
    await held[0];
    await expect(walks.run(1, pattern, async () => 'walked')).resolves.toBe('walked');
    ends[1]();
    await Promise.all(held);
  });

  it('frees the place when a walk fails', async () => {
    const walks = new PatternWalks();
    for (let i = 0; i < PATTERN_WALKS_PER_HOST + 1; i++) await expect(walks.run(1, pattern, () => Promise.reject(new Error('store down')))).rejects.toThrow('store down');
    await expect(walks.run(1, pattern, async () => 'walked')).resolves.toBe('walked');
  });
});

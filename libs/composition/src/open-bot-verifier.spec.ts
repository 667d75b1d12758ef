import { rmSync } from 'node:fs';
import path from 'node:path';
import type { AppConfig } from '@bpc/config';
import { RANGE_SET_STALE_DAYS, rangeSetAge, readRangeSet, SHIPPED_RANGES_DIR } from '@bpc/bot-verification';
import { capturedLogger, testConfig } from '@bpc/testing';
import { openPorts } from './open-ports';

const DAY_MS = 86_400_000;

/** The edge's verifier as the composition root opens it: on the shipped set unless told otherwise, its age said at startup. */
describe('the bot verifier the edge opens', () => {
  let config: AppConfig;
  /** The shipped set's date, whatever the last update made it. */
  let asOf: string;

  beforeAll(async () => {
    config = testConfig('standalone');
    asOf = rangeSetAge((await readRangeSet(SHIPPED_RANGES_DIR)).sources, 0).asOf!;
  });
  afterAll(() => rmSync(config.data_dir, { recursive: true, force: true }));

  const open = async (now: number, overrides: AppConfig = config) => {
    const { logger, lines } = capturedLogger('info');
    const { botVerifier } = await openPorts(overrides, new Set(['botVerifier']), logger, { now: () => now });
    return { botVerifier: botVerifier!, lines: lines.filter((line) => line.port === 'bot_verifier') };
  };

  it('loads the shipped set by default and logs its date and age', async () => {
    const { botVerifier, lines } = await open(Date.parse(`${asOf}T12:00:00Z`) + 10 * DAY_MS);
    expect(botVerifier.verify('Google', '66.249.66.1')).toBe('yes');
    expect(lines).toEqual([expect.objectContaining({ level: 30, ranges_dir: SHIPPED_RANGES_DIR, as_of: asOf, age_days: 10, msg: expect.stringContaining(`bot ranges as of ${asOf} (10 days old)`) })]);
  });

  it(`warns when the set is over ${RANGE_SET_STALE_DAYS} days old, naming the command that refreshes it`, async () => {
    const { lines } = await open(Date.parse(`${asOf}T12:00:00Z`) + (RANGE_SET_STALE_DAYS + 1) * DAY_MS);
    expect(lines).toEqual([expect.objectContaining({ level: 40, age_days: RANGE_SET_STALE_DAYS + 1, msg: expect.stringContaining('npm run bots:update-ranges') })]);
  });

  it('warns that a SAMPLE set is one', async () => {
    const sample = { ...config, edge: { ...config.edge, bot_verification: { ...config.edge.bot_verification, ranges_dir: path.join(SHIPPED_RANGES_DIR, '..', 'sample-ranges') } } };
    const { lines } = await open(Date.now(), sample);
    expect(lines).toEqual([expect.objectContaining({ level: 40, msg: expect.stringContaining('SAMPLE range set') })]);
  });
});

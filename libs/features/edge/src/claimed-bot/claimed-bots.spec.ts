import path from 'node:path';
import { BotVerifier, rangesOf, readRangeFiles, type DnsLookups } from '@bpc/bot-verification';
import { ClientAddresses } from '../client-address/client-address';
import { ClaimedBots } from './claimed-bots';

const SAMPLE_RANGES = path.resolve(__dirname, '../../../../ports/bot-verification/src/sample-ranges');
const GPTBOT = 'Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)';
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

/** Range answers need no DNS; a lookup here would be a bug (the claims below are range-only operators or none). */
const noLookups: DnsLookups = {
  resolvePtr: () => Promise.reject(new Error('no DNS in this test')),
  resolve4: () => Promise.reject(new Error('no DNS in this test')),
  resolve6: () => Promise.reject(new Error('no DNS in this test')),
};

describe('ClaimedBots: who the User-Agent says, and whether it is proven', () => {
  let bots: ClaimedBots;

  beforeAll(async () => {
    const verifier = new BotVerifier({ ranges: rangesOf(await readRangeFiles(SAMPLE_RANGES)), lookups: noLookups });
    bots = new ClaimedBots(verifier, new ClientAddresses(['10.0.0.0/8']));
  });

  it('verifies a claim from the address a trusted proxy gave', () => {
    expect(bots.of(GPTBOT, '10.0.0.1', '198.51.100.3')).toEqual({ identity: expect.objectContaining({ name: 'GPTBot', operator: 'OpenAI' }), verified: 'yes' });
    expect(bots.of(GPTBOT, '10.0.0.1', '203.0.113.66').verified).toBe('no');
  });

  it('is unknown without a believed address, for garbage, and for a User-Agent whose operator publishes no method', () => {
    expect(bots.of(GPTBOT, '203.0.113.1', '198.51.100.3').verified).toBe('unknown');
    expect(bots.of(GPTBOT, '10.0.0.1', undefined).verified).toBe('unknown');
    expect(bots.of(GPTBOT, '10.0.0.1', 'x'.repeat(20_000)).verified).toBe('unknown');
    expect(bots.of(BROWSER, '10.0.0.1', '203.0.113.66')).toEqual({ identity: expect.objectContaining({ name: 'other' }), verified: 'unknown' });
    expect(bots.of('', undefined, undefined).verified).toBe('unknown');
  });

  it("does not check a bot its operator's method does not cover: it may fetch from anywhere", () => {
    // Classified as Google's, but anyone runs a headless Chrome; ChatGPT Agent is OpenAI's, with no range file.
    expect(bots.of('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.0.0 Safari/537.36', '10.0.0.1', '203.0.113.66')).toMatchObject({ identity: { operator: 'Google' }, verified: 'unknown' });
  });
});

import { sha256Hex } from '@bpc/domain';
import { RunningApps, startApps } from '@bpc/composition';
import { capturedLogger, messagesWith, RuntimeMode, spawnService, testConfig } from '@bpc/testing';
import { edgeApp } from '../../apps/edge/src/edge.app';
import { standaloneApps } from '../../apps/standalone/src/standalone';

describe('startup with a bad configuration', () => {
  it('refuses to start, printing every offending key and the reason, exit code 2', async () => {
    const service = spawnService('apps/standalone/src/main.ts', {
      BPC__RECACHE__MAX_CONCURRENT: '0',
      BPC__RECACHE__COLOUR: 'red',
      BPC__ADAPTERS__EVENT_LOG: 'kafka',
    });
    expect(await service.exited).toBe(2);
    const output = service.output();
    expect(output).toContain('invalid configuration');
    expect(output).toContain('recache.colour: unknown key');
    expect(output).toContain('recache.max_concurrent: must not be less than 1');
  }, 30_000);

  it('refuses one app alone on the in-process adapters, saying how to run instead', async () => {
    const service = spawnService('apps/daemon/src/main.ts', {});
    expect(await service.exited).toBe(2);
    expect(service.output()).toContain('adapters: event_log "file" and queue_store "memory" keep their state in one process');
  }, 30_000);

  it('names the missing section when an adapter needs one', async () => {
    const service = spawnService('apps/daemon/src/main.ts', { BPC__ADAPTERS__QUEUE_STORE: 'redis' });
    expect(await service.exited).toBe(2);
    expect(service.output()).toContain('redis: required when adapters.queue_store is redis');
  }, 30_000);
});

describe.each<RuntimeMode>(['standalone', 'cluster'])('startup with a website the edge cannot serve (%s mode)', (mode) => {
  let running: RunningApps | undefined;
  afterEach(async () => {
    await running?.close();
  });

  it('warns once, naming the website and the key, that its bots will all be refused; not for a website with a token', async () => {
    const { logger, lines } = capturedLogger();
    const config = testConfig(mode, {
      websites: [
        { id: 'demo', host_id: 1, account_id: 'acme' },
        { id: 'shop', host_id: 2, account_id: 'acme', prerender_token_sha256: sha256Hex('shop-token') },
      ],
    });
    running = await startApps(mode === 'standalone' ? standaloneApps : [edgeApp], config, logger);
    expect(messagesWith(lines, 'no prerender token')).toEqual([
      'website demo has no prerender token: the edge refuses all of its bot requests (401) until websites[].prerender_token_sha256 is set',
    ]);
  }, 60_000);
});

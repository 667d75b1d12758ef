import { spawnService, standaloneDir, untilListening, writeStandaloneConfig } from '@bpc/testing';

describe('SIGTERM to the standalone process', () => {
  it('shuts down gracefully (exit 0) even when it comes while later apps are still starting', async () => {
    const { file, listen } = await writeStandaloneConfig(standaloneDir('bpc-shutdown'), { logging: { level: 'info' } });
    const service = spawnService('apps/standalone/src/main.ts', { BPC_CONFIG: file });

    // The projector listens first; the other apps start after it.
    await untilListening(listen.projector, service);
    service.child.kill('SIGTERM');

    expect(await service.exited).toBe(0);
    expect(service.output()).toContain('"msg":"stopped"');
  }, 90_000);
});

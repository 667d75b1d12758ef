import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FileEventLog } from '@bpc/event-log';
import { envelope, TOPICS, USER_ROLE_GRANTED, USER_ROLE_REVOKED } from '@bpc/events';
import { createLogger, ReadinessRegistry } from '@bpc/platform';
import { testConfig } from '@bpc/testing';
import { IdentityIndex } from './identity-index';

describe('IdentityIndex (on a real file event log)', () => {
  let dir: string;
  let log: FileEventLog;
  let index: IdentityIndex | undefined;

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'identity-'));
    log = await FileEventLog.open({ dir });
  });

  afterEach(async () => {
    await index?.onApplicationShutdown();
    await log.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('applies an event id once: a grant stored again after its revoke (a producer retry) does not restore the role', async () => {
    const at = new Date('2026-11-22T10:00:00Z');
    const grant = envelope(USER_ROLE_GRANTED, 1, { userId: 'ann', websiteId: 'demo', role: 'manager' }, { id: 'grant-1', occurredAt: at, key: 'ann' });
    const revoke = envelope(USER_ROLE_REVOKED, 1, { userId: 'ann', websiteId: 'demo' }, { id: 'revoke-1', occurredAt: at, key: 'ann' });
    await log.append(TOPICS.identity, [grant, revoke, grant]);
    index = new IdentityIndex(log, createLogger('silent', 'identity'), testConfig('standalone'), new ReadinessRegistry());
    index.onApplicationBootstrap();
    await index.ready();
    expect(index.view().roles.get('ann')?.get('demo')).toBeUndefined();
  });
});

import { rmSync } from 'node:fs';
import { createLogger } from '@bpc/platform';
import { testConfig } from '@bpc/testing';
import { operatorSqlStoresOpener } from './operator-sql-stores';

describe("the operator SQL console's stores, as adapters.explorer_store chooses", () => {
  const log = createLogger('silent', 'operator-sql-stores');

  it('are two read-only executors on chDB, opened only when the console asks', async () => {
    const config = testConfig('standalone');
    try {
      const stores = operatorSqlStoresOpener(config)(log);
      expect(stores).toEqual({ statements: expect.anything(), syntax: expect.anything() });
      await Promise.all([stores!.statements.close(), stores!.syntax.close()]);
    } finally {
      rmSync(config.data_dir, { recursive: true, force: true });
    }
  });

  it('are none on a ClickHouse server, which has a read-only analyst user of its own', () => {
    const config = testConfig('standalone', { adapters: { event_log: 'file', queue_store: 'memory', explorer_store: 'clickhouse' }, clickhouse: { url: 'http://127.0.0.1:8123', username: 'analyst-app', password: 'secret' } });
    try {
      expect(operatorSqlStoresOpener(config)(log)).toBeUndefined();
    } finally {
      rmSync(config.data_dir, { recursive: true, force: true });
    }
  });
});

import { envelope, EXPORT_COMPLETED, EXPORT_EXPIRED, EXPORT_FAILED, EXPORT_STARTED, ExportEvent, type ExportStartedPayload } from '@bpc/events';
import { emptyExportsState, evolveExports } from './export-record';

let n = 0;
const meta = () => ({ id: `e${++n}`, occurredAt: new Date('2026-11-21T12:00:00Z'), key: 'acme' });
const started = (exportId: number, extra: Partial<ExportStartedPayload> = {}) =>
  envelope(EXPORT_STARTED, 1, {
    exportId, fileId: `f${exportId}`, accountId: 'acme', websiteId: 'demo', userId: 'ann', explorerKey: 'events', questionHash: `h${exportId}`,
    columns: ['page'], maxRows: 10, filename: 'a.csv', window: { start: '2026-11-01T00:00:00.000Z', end: '2026-11-02T00:00:00.000Z' }, ...extra,
  }, meta()) as ExportEvent;

describe('evolveExports', () => {
  it('a start takes the account slot; completion or failure frees it; expiry forgets the record', () => {
    let state = emptyExportsState();
    state = evolveExports(state, started(1));
    expect(state.slots.get('acme')).toBe(1);
    expect(state.byId.get(1)?.status).toBe('running');
    state = evolveExports(state, envelope(EXPORT_COMPLETED, 1, { exportId: 1, accountId: 'acme', rowCount: 5, sizeBytes: 50 }, meta()) as ExportEvent);
    expect(state.slots.has('acme')).toBe(false);
    expect(state.byId.get(1)).toMatchObject({ status: 'completed', rowCount: 5, sizeBytes: 50, finishedAt: '2026-11-21T12:00:00.000Z' });

    state = evolveExports(state, started(2));
    state = evolveExports(state, envelope(EXPORT_FAILED, 1, { exportId: 2, accountId: 'acme', error: 'INTERRUPTED', errorMessage: 'x' }, meta()) as ExportEvent);
    expect(state.byId.get(2)).toMatchObject({ status: 'failed', error: 'INTERRUPTED' });
    expect(state.slots.has('acme')).toBe(false);
    expect(state.lastId).toBe(2);

    state = evolveExports(state, envelope(EXPORT_EXPIRED, 1, { exportId: 1, accountId: 'acme' }, meta()) as ExportEvent);
    expect(state.byId.has(1)).toBe(false);
    expect(state.lastId).toBe(2);
  });

  it('an outcome never reopens a finished record or frees a slot another export holds', () => {
    let state = emptyExportsState();
    state = evolveExports(state, started(1));
    state = evolveExports(state, envelope(EXPORT_COMPLETED, 1, { exportId: 1, accountId: 'acme', rowCount: 5, sizeBytes: 50 }, meta()) as ExportEvent);
    state = evolveExports(state, started(2));
    state = evolveExports(state, envelope(EXPORT_FAILED, 1, { exportId: 1, accountId: 'acme', error: 'X', errorMessage: 'x' }, meta()) as ExportEvent);
    expect(state.byId.get(1)?.status).toBe('completed');
    expect(state.slots.get('acme')).toBe(2);
  });

  it('a redelivered start (at-least-once log) does not reopen a finished export or take the slot again', () => {
    let state = emptyExportsState();
    const start = started(1);
    state = evolveExports(state, start);
    state = evolveExports(state, envelope(EXPORT_FAILED, 1, { exportId: 1, accountId: 'acme', error: 'INTERRUPTED', errorMessage: 'x' }, meta()) as ExportEvent);
    state = evolveExports(state, start);
    expect(state.byId.get(1)?.status).toBe('failed');
    expect(state.slots.has('acme')).toBe(false);
  });

  it('leaves the given state as it was', () => {
    const before = evolveExports(emptyExportsState(), started(1));
    const after = evolveExports(before, envelope(EXPORT_COMPLETED, 1, { exportId: 1, accountId: 'acme', rowCount: 5, sizeBytes: 50 }, meta()) as ExportEvent);
    expect(before.byId.get(1)?.status).toBe('running');
    expect(before.slots.get('acme')).toBe(1);
    expect(after.byId.get(1)?.status).toBe('completed');
  });

  it('keeps where the export was started; a start recorded before the field existed reads as api', () => {
    let state = evolveExports(emptyExportsState(), started(1));
    state = evolveExports(state, started(2, { startedFrom: 'dashboard' }));
    expect(state.byId.get(1)).toMatchObject({ startedFrom: 'api', createdAt: '2026-11-21T12:00:00.000Z' });
    expect(state.byId.get(2)?.startedFrom).toBe('dashboard');
  });
});

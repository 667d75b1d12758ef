import { readinessReport, shuttingDownReport } from './readiness-report';

const up = (name: string, critical: boolean, details?: Record<string, unknown>) => ({ name, critical, result: { ok: true as const, details } });
const down = (name: string, critical: boolean, reason = 'unreachable') => ({ name, critical, result: { ok: false as const, reason } });

describe('readinessReport', () => {
  it('is ok when every check is up, with their details', () => {
    expect(readinessReport([up('event_log (file)', true), up('projection (queue)', true, { lag: 0 })])).toEqual({
      status: 'ok',
      info: { 'event_log (file)': { status: 'up' }, 'projection (queue)': { status: 'up', lag: 0 } },
      degraded: {},
      error: {},
      details: { 'event_log (file)': { status: 'up' }, 'projection (queue)': { status: 'up', lag: 0 } },
    });
  });

  it('is degraded, not an error, when only non-critical checks are down', () => {
    const report = readinessReport([up('cache_store (redis)', true), down('event_log (kafka)', false, 'no answer within 2000 ms')]);
    expect(report.status).toBe('degraded');
    expect(report.degraded).toEqual({ 'event_log (kafka)': { status: 'down', reason: 'no answer within 2000 ms' } });
    expect(report.error).toEqual({});
    expect(report.details['event_log (kafka)']).toEqual({ status: 'down', reason: 'no answer within 2000 ms' });
  });

  it('is an error when a critical check is down, listing the non-critical ones apart', () => {
    const report = readinessReport([down('cache_store (redis)', true), down('event_log (kafka)', false)]);
    expect(report.status).toBe('error');
    expect(Object.keys(report.error)).toEqual(['cache_store (redis)']);
    expect(Object.keys(report.degraded)).toEqual(['event_log (kafka)']);
    expect(Object.keys(report.details).sort()).toEqual(['cache_store (redis)', 'event_log (kafka)']);
  });

  it('says the process is shutting down', () => {
    expect(shuttingDownReport()).toMatchObject({ status: 'error', error: { shutdown: { status: 'down', reason: 'the process is shutting down' } } });
  });
});

import type { ApiRequest, PublicApiClient } from './api-client';
import { listAlertDeliveries } from './alert-tools';

describe('list_alert_deliveries', () => {
  const page = { data: [{ alertId: 'export_finished:demo:1', type: 'export_finished', attempt: 2, status: 'failed', httpStatus: 503, error: 'HTTP 503', at: '2026-11-28T10:00:00.000Z' }], meta: { page: 1, perPage: 1, total: 3, totalPages: 3 } };
  const recording = (answer: { status: number; body: unknown }) => {
    const calls: ApiRequest[] = [];
    const api: PublicApiClient = async (request) => (calls.push(request), answer);
    return { api, calls };
  };

  it('reads one page of the delivery log, paging and status in the query string, and says how to get more', async () => {
    const { api, calls } = recording({ status: 200, body: page });
    const result = await listAlertDeliveries.run(api, { website: 'demo', page: 1, perPage: 1, status: 'failed' });
    expect(calls).toEqual([{ method: 'GET', path: '/api/websites/demo/alerts/deliveries?page=1&perPage=1&status=failed' }]);
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual(page);
    expect(result.content[0].text).toMatch(/^1 of 3 deliveries \(page 1 of 3\); 1 failed on this page\. Call again with page 2 for more\./);
  });

  it('refuses a bad argument before any call, naming it; passes the API refusal on', async () => {
    const { api, calls } = recording({ status: 400, body: { code: 'VALIDATION_FAILED', message: 'perPage must be an integer from 1 to 200', field: 'perPage' } });
    for (const [args, field] of [[{ website: 'demo', perPage: 2.5 }, 'perPage'], [{ website: 'demo', status: 'lost' }, 'status'], [{}, 'website']] as const) {
      const refused = await listAlertDeliveries.run(api, args);
      expect({ field, isError: refused.isError, text: refused.content[0].text }).toEqual({ field, isError: true, text: expect.stringContaining(`(field: ${field})`) });
    }
    expect(calls).toEqual([]);
    const fromApi = await listAlertDeliveries.run(api, { website: 'demo', perPage: 500 });
    expect(fromApi.content[0].text).toMatch(/^Refused: HTTP 400 VALIDATION_FAILED: perPage must be an integer from 1 to 200 \(field: perPage\)/);
  });
});

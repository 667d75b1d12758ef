import { invalidateBody, recacheBody } from './cache-operation-bodies';

describe("the daemon's cache operation bodies", () => {
  const accepted = { hostId: 1, urlsCount: 3, dimensionIdsCount: 2, entriesEnqueued: 4, priority: 'high', paused: false, receiptId: '0193b0f4-6d2a-7c1e-9f3b-2a4c6e8d0f12' } as const;

  it('name a recache in snake_case, in the order the specification gives, with mode only when the request forced one', () => {
    expect(JSON.stringify(recacheBody(accepted))).toBe(
      '{"host_id":1,"urls_count":3,"dimension_ids_count":2,"entries_enqueued":4,"priority":"high","paused":false,"receipt_id":"0193b0f4-6d2a-7c1e-9f3b-2a4c6e8d0f12"}',
    );
    expect(recacheBody({ ...accepted, mode: 'bypass' })).toMatchObject({ mode: 'bypass' });
  });

  it('name an invalidation in snake_case', () => {
    expect(JSON.stringify(invalidateBody({ hostId: 1, urlsCount: 4, dimensionIdsCount: 2, entriesInvalidated: 3 }))).toBe('{"host_id":1,"urls_count":4,"dimension_ids_count":2,"entries_invalidated":3}');
  });
});

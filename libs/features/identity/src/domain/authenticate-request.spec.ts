import { API_TOKEN_ISSUED, envelope } from '@bpc/events';
import { newApiToken } from './api-token';
import { authenticateRequest } from './authenticate-request';
import { emptyIdentityState, evolveIdentity } from './identity-state';

const now = Date.parse('2026-11-27T12:00:00Z');
const token = newApiToken();
const state = evolveIdentity(
  emptyIdentityState(),
  envelope(API_TOKEN_ISSUED, 1, { tokenId: token.tokenId, userId: 'alice', sha256: token.sha256, label: '', expiresAt: null }, { id: 'e1', occurredAt: new Date(now - 1000), key: 'identity' }),
);

describe('the channel a bearer-authenticated request comes through', () => {
  it('is the API, or the agent connector when the request carries its mark; the token decides who', () => {
    const bearer = { method: 'POST', authorization: `Bearer ${token.token}` };
    expect(authenticateRequest(state, bearer, now)).toEqual({ userId: 'alice', tokenId: token.tokenId, rateLimitKey: token.tokenId, via: 'api' });
    expect(authenticateRequest(state, { ...bearer, agentConnector: true }, now)).toEqual({ userId: 'alice', tokenId: token.tokenId, rateLimitKey: token.tokenId, via: 'agent' });
    expect(() => authenticateRequest(state, { method: 'POST', authorization: 'Bearer nope', agentConnector: true }, now)).toThrow(/unknown API token/);
  });
});

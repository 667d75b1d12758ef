import { createLogger, ReadinessRegistry } from '@bpc/platform';
import { FollowedIdentity, followIdentity, identityFacts, openStandaloneState, StandaloneState } from '@bpc/testing';
import { newApiToken } from '../domain/api-token';
import { IdentityIndex } from '../index/identity-index';
import { ListApiTokensHandler } from './list-api-tokens.handler';

const T = Date.parse('2026-11-28T02:00:00Z');

describe('ListApiTokens', () => {
  let state: StandaloneState;
  let identity: FollowedIdentity;
  const ann = newApiToken();
  const bob = newApiToken();

  beforeEach(async () => {
    state = await openStandaloneState();
    identity = await followIdentity(state);
  });

  afterEach(async () => {
    await identity.stop();
    await state.close();
  });

  it("lists every token with its owner's current roles, its expiry and revocation, and never the secret or its hash", async () => {
    await identity.given(
      identityFacts.roleGranted('ann', 'demo', 'manager', T),
      identityFacts.tokenIssued(ann, 'ann', T, { label: 'ci', expiresAt: '2027-01-01T00:00:00.000Z' }),
      identityFacts.roleGranted('bob', 'demo', 'readonly', T + 1_000),
      identityFacts.tokenIssued(bob, 'bob', T + 1_000),
      identityFacts.tokenRevoked(bob.tokenId, T + 2_000),
      // A role granted after the token was issued is listed: roles are the user's, as of now.
      identityFacts.roleGranted('ann', 'shop', 'admin', T + 3_000),
    );

    const listing = await new ListApiTokensHandler(identity.index).execute();

    expect(listing).toEqual([
      { tokenId: ann.tokenId, userId: 'ann', label: 'ci', issuedAt: new Date(T).toISOString(), expiresAt: '2027-01-01T00:00:00.000Z', revokedAt: null, roles: { demo: 'manager', shop: 'admin' } },
      { tokenId: bob.tokenId, userId: 'bob', label: '', issuedAt: new Date(T + 1_000).toISOString(), expiresAt: null, revokedAt: new Date(T + 2_000).toISOString(), roles: { demo: 'readonly' } },
    ]);
    const text = JSON.stringify(listing);
    for (const secret of [ann.token, ann.sha256, bob.token, bob.sha256]) expect(text).not.toContain(secret);
  });

  it('lists nothing when no token was issued', async () => {
    expect(await new ListApiTokensHandler(identity.index).execute()).toEqual([]);
  });

  it('answers LOG_UNAVAILABLE rather than a partial list while the index has not caught up', async () => {
    const behind = new IdentityIndex(state.log, createLogger('silent', 'identity'), state.config, new ReadinessRegistry());
    await expect(new ListApiTokensHandler(behind).execute()).rejects.toMatchObject({ code: 'LOG_UNAVAILABLE' });
  });
});

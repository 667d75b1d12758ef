import { AppError } from '@bpc/domain';
import { sessionCookieOf } from './request-credentials';

describe('the bpc_session cookie of a Cookie header', () => {
  it('is found among other cookies, spaces around it ignored, and absent when not sent', () => {
    expect(sessionCookieOf('theme=dark;  bpc_session=bpc_ses_x ; lang=fr')).toBe('bpc_ses_x');
    expect(sessionCookieOf('bpc_session=')).toBe('');
    expect(sessionCookieOf('xbpc_session=a; bpc_session_old=b; theme')).toBeUndefined();
    expect(sessionCookieOf(undefined)).toBeUndefined();
  });

  it('is refused when sent twice, whatever the values: a planted one must not be picked', () => {
    for (const header of ['bpc_session=a; bpc_session=b', 'bpc_session=a;bpc_session=a', ' bpc_session =a; theme=dark; bpc_session=b']) {
      expect(() => sessionCookieOf(header)).toThrow(new AppError('UNAUTHENTICATED', 'several bpc_session cookies: sign in again'));
    }
  });
});

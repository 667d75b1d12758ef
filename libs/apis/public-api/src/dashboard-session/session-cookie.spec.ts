import { parseSetCookie } from 'cookie';
import { clearedSessionCookie, sessionCookie } from './session-cookie';

describe('the session cookie', () => {
  it('is HttpOnly, SameSite=Strict, for the whole site, as long as the session; Secure only when asked', () => {
    expect(sessionCookie('bpc_ses_0123456789abcdef_x', 43_200, false)).toBe('bpc_session=bpc_ses_0123456789abcdef_x; Max-Age=43200; Path=/; HttpOnly; SameSite=Strict');
    expect(parseSetCookie(sessionCookie('s', 60, true))).toEqual({ name: 'bpc_session', value: 's', maxAge: 60, path: '/', httpOnly: true, secure: true, sameSite: 'strict' });
  });

  it('is cleared with an empty value and Max-Age=0, same attributes', () => {
    expect(clearedSessionCookie(true)).toBe('bpc_session=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Strict');
  });
});

import { stringifySetCookie } from 'cookie';
import { SESSION_COOKIE } from '@bpc/identity';

/** `Set-Cookie` of a new session: HttpOnly (scripts cannot read it), SameSite=Strict, the whole site, as long as the session lasts. */
export function sessionCookie(secret: string, maxAgeSeconds: number, secure: boolean): string {
  return stringifySetCookie({ name: SESSION_COOKIE, value: secret, httpOnly: true, sameSite: 'strict', path: '/', maxAge: maxAgeSeconds, secure });
}

/** `Set-Cookie` that makes the browser drop the session cookie. */
export function clearedSessionCookie(secure: boolean): string {
  return stringifySetCookie({ name: SESSION_COOKIE, value: '', httpOnly: true, sameSite: 'strict', path: '/', maxAge: 0, secure });
}

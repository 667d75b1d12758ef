import { createHmac } from 'node:crypto';
import { alertSignature, verifyAlertSignature } from './alert-signature';

const SECRET = 'a-webhook-secret-of-32-characters';
const BODY = '{"id":"export_finished:demo:1","type":"export_finished"}';

describe('the X-BPC-Signature header', () => {
  it('is t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>', () => {
    const expected = createHmac('sha256', SECRET).update(`1764324000.${BODY}`).digest('hex');
    expect(alertSignature(SECRET, BODY, 1764324000)).toBe(`t=1764324000,v1=${expected}`);
  });

  it('verifies for the same secret, body and a recent timestamp only', () => {
    const header = alertSignature(SECRET, BODY, 1764324000);
    expect(verifyAlertSignature(SECRET, BODY, header, 1764324000 + 10)).toBe(true);
    expect(verifyAlertSignature('another-secret-of-enough-length', BODY, header, 1764324000)).toBe(false);
    expect(verifyAlertSignature(SECRET, `${BODY} `, header, 1764324000)).toBe(false);
    expect(verifyAlertSignature(SECRET, BODY, header, 1764324000 + 301)).toBe(false);
    expect(verifyAlertSignature(SECRET, BODY, header.replace('t=1764324000', 't=1764324001'), 1764324000)).toBe(false);
    expect(verifyAlertSignature(SECRET, BODY, undefined, 1764324000)).toBe(false);
    expect(verifyAlertSignature(SECRET, BODY, 't=1764324000,v1=zz', 1764324000)).toBe(false);
  });
});

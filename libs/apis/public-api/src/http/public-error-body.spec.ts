import { AppError, ERROR_CODES } from '@bpc/domain';
import { MethodNotAllowed } from '@bpc/platform';
import { publicErrorResponse, publicStatusFor } from './public-error-body';

describe('public error envelope', () => {
  it('maps every application error code to a status', () => {
    expect(Object.fromEntries(ERROR_CODES.map((c) => [c, publicStatusFor(c)]))).toEqual({
      VALIDATION_FAILED: 400, UNAUTHENTICATED: 401, FORBIDDEN: 403, FEATURE_DISABLED: 403, NOT_FOUND: 404, STORE_UNAVAILABLE: 503, LOG_UNAVAILABLE: 503, PROJECTION_TIMEOUT: 504, QUERY_TIMEOUT: 504, EXPLORER_BUSY: 503,
      EXPORT_SLOT_BUSY: 409, EXPORT_NOT_FOUND: 404, DOWNLOAD_LINK_INVALID: 403, DOWNLOAD_LINK_EXPIRED: 410, RECEIPT_NOT_FOUND: 404,
    });
  });

  it('answers {code, message, field?} and hides unexpected errors', () => {
    expect(publicErrorResponse(new AppError('VALIDATION_FAILED', 'bad', 'perPage'))).toEqual({ status: 400, body: { code: 'VALIDATION_FAILED', message: 'bad', field: 'perPage' }, unexpected: false });
    expect(publicErrorResponse(new AppError('FORBIDDEN', 'no'))).toEqual({ status: 403, body: { code: 'FORBIDDEN', message: 'no' }, unexpected: false });
    expect(publicErrorResponse(new AppError('EXPORT_SLOT_BUSY', 'busy', undefined, { exportId: 'exp_7', code: 'X' }))).toEqual({ status: 409, body: { exportId: 'exp_7', code: 'EXPORT_SLOT_BUSY', message: 'busy' }, unexpected: false });
    expect(publicErrorResponse(new Error('secret stack'))).toEqual({ status: 500, body: { code: 'INTERNAL', message: 'internal error' }, unexpected: true });
    expect(publicErrorResponse({ statusCode: 400, message: 'Unexpected end of JSON input' }).body).toMatchObject({ code: 'VALIDATION_FAILED', field: 'body' });
  });

  it('answers a wrong method 405 and a body sent as anything but JSON 400 naming its content type', () => {
    expect(publicErrorResponse(new MethodNotAllowed('GET', ['POST']))).toEqual({
      status: 405,
      body: { code: 'METHOD_NOT_ALLOWED', message: 'method GET is not allowed on this endpoint; allowed: POST' },
      unexpected: false,
    });
    expect(publicErrorResponse({ statusCode: 415, message: 'Unsupported Media Type' }, 'application/x-www-form-urlencoded').body).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'wrong content type (Content-Type application/x-www-form-urlencoded): send the body as JSON with Content-Type: application/json',
      field: 'body',
    });
    expect(publicErrorResponse({ statusCode: 415, message: 'Unsupported Media Type' }, undefined).body).toMatchObject({ message: expect.stringMatching(/^wrong content type \(no Content-Type\)/) });
  });
});

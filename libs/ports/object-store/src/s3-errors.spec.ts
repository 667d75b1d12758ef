import { classifyS3Error, s3Error } from './s3-errors';
import { ObjectGoneError, ObjectStoreUnavailableError } from './object-store.port';

const answered = (name: string, status: number) => Object.assign(new Error(name), { name, $metadata: { httpStatusCode: status } });
const socket = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:9000`), { code });

describe('classifyS3Error', () => {
  it.each([
    ['NoSuchKey', answered('NoSuchKey', 404), 'object', 'gone'],
    ['a HEAD 404 on an object', answered('NotFound', 404), 'object', 'gone'],
    ['a HEAD 404 on the bucket', answered('NotFound', 404), 'bucket', 'bucket missing'],
    ['NoSuchBucket on an object read', answered('NoSuchBucket', 404), 'object', 'bucket missing'],
    ['AccessDenied', answered('AccessDenied', 403), 'object', 'access denied'],
    ['a bare 403', answered('Forbidden', 403), 'bucket', 'access denied'],
    ['SlowDown', answered('SlowDown', 503), 'object', 'throttled'],
    ['a 429', answered('TooManyRequests', 429), 'object', 'throttled'],
    ['InternalError', answered('InternalError', 500), 'object', 'server error'],
    ['connection refused', socket('ECONNREFUSED'), 'object', 'unreachable'],
    ['connection reset', socket('ECONNRESET'), 'object', 'unreachable'],
    ['unknown host', socket('ENOTFOUND'), 'bucket', 'unreachable'],
    ['refused on every address (AggregateError)', Object.assign(new AggregateError([socket('ECONNREFUSED')]), { code: undefined }), 'object', 'unreachable'],
    ['the SDK timeout', Object.assign(new Error('timed out'), { name: 'TimeoutError' }), 'object', 'timed out'],
    ['anything else', answered('InvalidArgument', 400), 'object', 'refused'],
  ] as const)('%s → %s', (_, error, subject, failure) => {
    expect(classifyS3Error(error, subject)).toBe(failure);
  });
});

describe('s3Error', () => {
  const store = 's3://bucket/prefix at http://minio:9000';

  it('answers ObjectGoneError for a missing object, with the cause', () => {
    const cause = answered('NoSuchKey', 404);
    const error = s3Error(cause, { operation: 'read', key: 'a.body', store });
    expect(error).toBeInstanceOf(ObjectGoneError);
    expect(error.message).toBe('object a.body is gone from s3://bucket/prefix at http://minio:9000');
    expect(error.cause).toBe(cause);
  });

  it('answers ObjectStoreUnavailableError naming the store, the operation and the reason', () => {
    const error = s3Error(socket('ECONNREFUSED'), { operation: 'put', key: 'a.body', store });
    expect(error).toBeInstanceOf(ObjectStoreUnavailableError);
    expect(error.message).toBe('object store s3://bucket/prefix at http://minio:9000: put a.body failed: unreachable (ECONNREFUSED)');
    expect(s3Error(answered('NotFound', 404), { operation: 'check (HeadBucket)', store, subject: 'bucket' }).message).toBe(
      'object store s3://bucket/prefix at http://minio:9000: check (HeadBucket) failed: bucket missing (NotFound)',
    );
  });
});

import { isS3BucketName } from './s3-bucket-name';

describe('isS3BucketName', () => {
  it.each(['bpc', 'bpc-objects', 'my.bucket.example', 'a1b', '0bucket9', 'x'.repeat(63)])('accepts %s', (name) => {
    expect(isS3BucketName(name)).toBe(true);
  });

  it.each([
    ['too short', 'ab'],
    ['too long', 'x'.repeat(64)],
    ['upper case', 'Bucket'],
    ['an underscore', 'my_bucket'],
    ['a leading hyphen', '-bucket'],
    ['a trailing dot', 'bucket.'],
    ['two dots in a row', 'my..bucket'],
    ['an IP address', '192.168.0.1'],
    ['a reserved prefix', 'xn--bucket'],
    ['a reserved suffix', 'bucket-s3alias'],
    ['a slash', 'bucket/prefix'],
    ['empty', ''],
  ])('refuses %s', (_, name) => {
    expect(isS3BucketName(name)).toBe(false);
  });
});

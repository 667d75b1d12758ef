const SHAPE = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const IP_ADDRESS = /^\d{1,3}(\.\d{1,3}){3}$/;
/** Prefixes and suffixes AWS reserves for its own bucket kinds (access points, directory buckets, demos). */
const RESERVED_PREFIXES = ['xn--', 'sthree-', 'amzn-s3-demo-'];
const RESERVED_SUFFIXES = ['-s3alias', '--ol-s3', '.mrap', '--x-s3', '--table-s3'];

/**
 * AWS's general-purpose bucket naming rules, which MinIO follows too: a name
 * that breaks them fails on the first request, so it is refused at startup.
 */
export function isS3BucketName(name: string): boolean {
  return (
    SHAPE.test(name) &&
    !name.includes('..') &&
    !IP_ADDRESS.test(name) &&
    !RESERVED_PREFIXES.some((prefix) => name.startsWith(prefix)) &&
    !RESERVED_SUFFIXES.some((suffix) => name.endsWith(suffix))
  );
}

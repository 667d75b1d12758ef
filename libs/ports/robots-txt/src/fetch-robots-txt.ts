import type { Dispatcher } from 'undici';
import type { EgressRules } from '@bpc/egress';
import { fetchOnSite, type SitemapSite } from '@bpc/sitemaps';
import { MAX_ROBOTS_TXT_BYTES, type RobotsFetch } from './robots-file';

export interface RobotsTxtFetch {
  readonly site: SitemapSite;
  readonly rules: EgressRules;
  readonly dispatcher: Dispatcher;
  readonly userAgent: string;
  readonly timeoutMs: number;
}

class RobotsTxtRefused extends Error {}

/** RFC 9309 §2.3.1.2: crawlers follow at least five consecutive redirects. */
const MAX_REDIRECTS = 5;

/**
 * Fetches `https://<hostname>/robots.txt` the way sitemaps are fetched
 * (through the configured origin, under the egress rules, redirects kept on
 * the website), reading at most `MAX_ROBOTS_TXT_BYTES` and one more byte (to
 * know it was cut). A refusal, a timeout or a connection error is
 * `unreachable`. It asks for an uncompressed answer: the file is small.
 */
export async function fetchRobotsTxt(robotsUrl: URL, fetch: RobotsTxtFetch): Promise<RobotsFetch> {
  const signal = AbortSignal.timeout(fetch.timeoutMs);
  try {
    const onSite = { ...fetch, signal, accept: 'text/plain, */*;q=0.1', acceptEncoding: 'identity', maxRedirects: MAX_REDIRECTS };
    const { response } = await fetchOnSite(robotsUrl, onSite, (reason) => new RobotsTxtRefused(reason));
    return { kind: 'answered', status: response.statusCode, body: await readCapped(response.body, MAX_ROBOTS_TXT_BYTES + 1) };
  } catch (error) {
    if (error instanceof RobotsTxtRefused) return { kind: 'unreachable', reason: error.message };
    return { kind: 'unreachable', reason: signal.aborted ? `${robotsUrl.href}: timed out` : `${robotsUrl.href}: the answer broke off` };
  }
}

async function readCapped(body: Dispatcher.ResponseData['body'], cap: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= cap) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, cap);
}

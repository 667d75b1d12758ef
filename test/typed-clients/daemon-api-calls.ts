import createClient from 'openapi-fetch';
import type { paths } from 'generated/daemon-api';
import { Answer, answer } from './answer';

export interface DaemonApiTarget {
  readonly baseUrl: string;
  readonly internalKey: string;
  readonly hostId: number;
  /** A URL on the host. */
  readonly pageUrl: string;
}

/**
 * Calls every operation of the daemon API once through a client typed by
 * openapi-typescript from the committed document (the daemon must have
 * `scheduler_control_api: true`), plus calls that must fail, and reports each answer.
 */
export async function callDaemonApi({ baseUrl, internalKey, hostId, pageUrl }: DaemonApiTarget): Promise<Answer[]> {
  const client = createClient<paths>({ baseUrl, headers: { 'X-Internal-Auth': internalKey } });
  const answers: Answer[] = [];
  const host = { host_id: hostId };

  answers.push(answer('post', '/internal/cache/recache', await client.POST('/internal/cache/recache', { body: { ...host, urls: [pageUrl], priority: 'normal', mode: 'bypass' } })));
  const unauthenticated = await createClient<paths>({ baseUrl }).POST('/internal/cache/recache', { body: { ...host, urls: [pageUrl], priority: 'high' } });
  answers.push(answer('post', '/internal/cache/recache', unauthenticated, unauthenticated.error?.message));
  const refused = await client.POST('/internal/cache/recache', { body: { ...host, urls: [] as string[], priority: 'high' } });
  answers.push(answer('post', '/internal/cache/recache', refused, refused.error?.message));

  answers.push(answer('post', '/internal/cache/queue/purge', await client.POST('/internal/cache/queue/purge', { body: { ...host, priorities: ['normal'] } })));
  answers.push(answer('post', '/internal/cache/recache/pause', await client.POST('/internal/cache/recache/pause', { body: host })));
  answers.push(answer('post', '/internal/cache/recache/resume', await client.POST('/internal/cache/recache/resume', { body: host })));
  answers.push(answer('post', '/internal/cache/invalidate', await client.POST('/internal/cache/invalidate', { body: { ...host, urls: [pageUrl] } })));

  const status = await client.GET('/status', { params: { header: { 'X-Response-Envelope': 'status' } } });
  answers.push(answer('get', '/status', status, status.data?.status === 'ok' ? undefined : 'not the earlier envelope'));

  answers.push(answer('post', '/internal/scheduler/pause', await client.POST('/internal/scheduler/pause')));
  answers.push(answer('post', '/internal/scheduler/resume', await client.POST('/internal/scheduler/resume')));
  return answers;
}

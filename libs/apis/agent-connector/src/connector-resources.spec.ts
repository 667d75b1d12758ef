import type { PublicApiClient } from './api-client';
import { readResource, ResourceRefusal } from './connector-resources';

describe('reading a resource', () => {
  const calls: string[] = [];
  const api: PublicApiClient = async ({ path }) => {
    calls.push(path);
    return { status: 200, body: { explorers: [], limits: {} } };
  };

  it('reads the website named in the URI through its discovery endpoint', async () => {
    await readResource(api, 'bpc://websites/my%20site/explorers');
    expect(calls.pop()).toBe('/api/websites/my%20site/data-explorer');
  });

  it.each(['bpc://websites/%E0%A4%A/explorers', 'bpc://websites/../explorers', 'bpc://websites/%2E%2E/explorers/reference'])('refuses %s without calling the API', async (uri) => {
    const before = calls.length;
    await expect(readResource(api, uri)).rejects.toThrow(ResourceRefusal);
    expect(calls.length).toBe(before);
  });
});

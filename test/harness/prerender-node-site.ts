import type { AddressInfo } from 'node:net';
import express from 'express';
import prerender from 'prerender-node';

/** A customer's Express site in front of the edge, on loopback. */
export interface PrerenderNodeSite {
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * An Express site with `prerender-node` set up as the README says (the edge's
 * URL, the website's token, `forwardHeaders` so the bot's Accept and
 * X-Forwarded-For reach the edge), its own route after it answering
 * `siteBody` to everyone the middleware passes on. prerender-node keeps its
 * settings in the module: one site at a time.
 */
export async function startPrerenderNodeSite(edgeUrl: string, token: string, siteBody: string): Promise<PrerenderNodeSite> {
  const app = express();
  app.use(prerender.set('prerenderServiceUrl', `${edgeUrl}/`).set('prerenderToken', token).set('forwardHeaders', true));
  app.use((_req, res) => void res.type('html').send(siteBody));
  const server = await new Promise<ReturnType<typeof app.listen>>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

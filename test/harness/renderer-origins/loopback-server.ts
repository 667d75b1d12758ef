import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A test server listening on a free loopback port. */
export interface LoopbackServer {
  readonly url: string;
  /** Ends every connection (kept-alive ones and those still waiting for an answer) and stops listening. */
  close(): Promise<void>;
}

/** Starts `server` on 127.0.0.1 on a free port: the shared scaffolding of the renderer's test origins. */
export async function listenOnLoopback(server: Server): Promise<LoopbackServer> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

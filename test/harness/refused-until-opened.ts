import { connect, createServer, Socket } from 'node:net';
import { freePort } from './engines';

/** A loopback address standing for an engine that is down or up at the test's word. */
export interface SwitchableAddress {
  /** `127.0.0.1:<port>`, to configure as the engine's address. */
  readonly address: string;
  /** From now on, connections are forwarded to the real engine. */
  open(): Promise<void>;
  /** Cuts every forwarded connection and refuses new ones again. */
  close(): Promise<void>;
}

/** A loopback address that refuses connections (as a Kafka not started yet) until `open()`, then forwards each one to `target` (host:port). */
export async function refusedUntilOpened(target: string): Promise<SwitchableAddress> {
  const port = await freePort();
  const [host, targetPort] = target.split(':');
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(targetPort), host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
      socket.on('error', () => (client.destroy(), upstream.destroy()));
    }
    client.pipe(upstream).pipe(client);
  });
  return {
    address: `127.0.0.1:${port}`,
    open: () => new Promise((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve)),
    close: () =>
      new Promise((resolve) => {
        sockets.forEach((s) => s.destroy());
        if (server.listening) server.close(() => resolve());
        else resolve();
      }),
  };
}

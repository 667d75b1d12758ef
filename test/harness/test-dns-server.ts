import { createSocket } from 'node:dgram';
import { Resolver } from 'node:dns/promises';
import { decode, encode, type Answer } from 'dns-packet';

/** A DNS server on loopback (UDP) answering A and AAAA queries from a fixed table; every other name is NXDOMAIN. */
export interface TestDnsServer {
  readonly port: number;
  /** A resolver that asks this server only (one try, 1 s). */
  resolver(): Resolver;
  close(): Promise<void>;
}

/** `records` maps a name to its addresses (IPv4 become A records, IPv6 AAAA); a query for a name `silent` returns true for is never answered. */
export async function startTestDnsServer(records: Readonly<Record<string, readonly string[]>>, silent: (name: string) => boolean = () => false): Promise<TestDnsServer> {
  const socket = createSocket('udp4');
  socket.on('message', (message, peer) => {
    const query = decode(message);
    if ((query.questions ?? []).some((q) => silent(q.name.toLowerCase()))) return;
    const answers: Answer[] = [];
    for (const question of query.questions ?? []) {
      for (const address of records[question.name.toLowerCase()] ?? []) {
        const type = address.includes(':') ? 'AAAA' : 'A';
        if (question.type === type) answers.push({ type, name: question.name, ttl: 0, class: 'IN', data: address });
      }
    }
    const known = (query.questions ?? []).every((q) => records[q.name.toLowerCase()] !== undefined);
    const reply = encode({ id: query.id, type: 'response', flags: (1 << 8) | (1 << 7) | (known ? 0 : 3), questions: query.questions, answers });
    socket.send(reply, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  return {
    port,
    resolver: () => {
      const resolver = new Resolver({ timeout: 1_000, tries: 1 });
      resolver.setServers([`127.0.0.1:${port}`]);
      return resolver;
    },
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

import { createSocket } from 'node:dgram';
import { Resolver } from 'node:dns/promises';
import { decode, encode, type Answer } from 'dns-packet';
import { reverseLookupName } from '@bpc/bot-verification';

/** One record of a test zone: forward (A, AAAA), reverse (PTR, named by the address it answers for) or an alias (CNAME). */
export type TestZoneRecord =
  | { readonly type: 'A' | 'AAAA'; readonly name: string; readonly address: string }
  | { readonly type: 'PTR'; readonly address: string; readonly name: string }
  | { readonly type: 'CNAME'; readonly name: string; readonly target: string };

/** A DNS server on loopback (UDP) that answers A, AAAA, PTR and CNAME from a fixed zone, as a recursive resolver would; a name outside the zone is NXDOMAIN. */
export interface TestDnsZone {
  readonly port: number;
  /** A resolver that asks this server only (one try, `timeoutMs`, default 1 s). */
  resolver(timeoutMs?: number): Resolver;
  close(): Promise<void>;
}

// A recursive resolver follows a CNAME chain in one answer; a loop stops it after this many links.
const CNAME_LINKS = 8;

/** Starts the zone; a query for a name `silent` returns true for is never answered (a timeout). */
export async function startTestDnsZone(records: readonly TestZoneRecord[], silent: (name: string) => boolean = () => false): Promise<TestDnsZone> {
  const zone = records.map((record) => (record.type === 'PTR' ? { type: 'PTR' as const, name: reverseLookupName(record.address), data: fqdn(record.name) } : record.type === 'CNAME' ? { type: 'CNAME' as const, name: fqdn(record.name), data: fqdn(record.target) } : { type: record.type, name: fqdn(record.name), data: record.address }));
  const answersFor = (name: string, type: string): Answer[] => {
    const answers: Answer[] = [];
    let current = name;
    for (let link = 0; link <= CNAME_LINKS; link++) {
      const direct = zone.filter((record) => record.name === current && record.type === type);
      if (direct.length > 0) return [...answers, ...direct.map((record) => ({ type: record.type, name: current, ttl: 0, class: 'IN' as const, data: record.data }) as Answer)];
      const alias = zone.find((record) => record.name === current && record.type === 'CNAME');
      if (alias === undefined) return answers;
      answers.push({ type: 'CNAME', name: current, ttl: 0, class: 'IN', data: alias.data });
      current = alias.data;
    }
    return answers;
  };
  const socket = createSocket('udp4');
  socket.on('message', (message, peer) => {
    const query = decode(message);
    const questions = query.questions ?? [];
    if (questions.some((q) => silent(fqdn(q.name)))) return;
    const answers = questions.flatMap((q) => answersFor(fqdn(q.name), q.type));
    const known = questions.every((q) => zone.some((record) => record.name === fqdn(q.name)));
    socket.send(encode({ id: query.id, type: 'response', flags: (1 << 8) | (1 << 7) | (known ? 0 : 3), questions, answers }), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  return {
    port,
    resolver: (timeoutMs = 1_000) => {
      const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
      resolver.setServers([`127.0.0.1:${port}`]);
      return resolver;
    },
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

function fqdn(name: string): string {
  return name.toLowerCase().replace(/\.$/, '');
}

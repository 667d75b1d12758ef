import { isIP } from 'node:net';
import { Agent, buildConnector, type Dispatcher } from 'undici';
import { DEFAULT_RESOLVERS, resolveCheckedAddress, type Resolvers } from './checked-address';
import { unbracketed, type EgressRules } from './egress-rules';

/**
 * An HTTP client dispatcher (undici) for origin fetches that connects only
 * where the rules allow: each connection resolves its host once, checks every
 * address (`resolveCheckedAddress`) and connects to the checked one, keeping
 * the host name for TLS (SNI and certificate checks). A refusal fails the
 * fetch with `EgressRefused` as its cause.
 */
export function checkedDispatcher(rules: EgressRules, resolvers: Resolvers = DEFAULT_RESOLVERS): Dispatcher {
  const connectTo = buildConnector({});
  return new Agent({
    connect: (options, callback) => {
      const scheme = options.protocol === 'https:' ? 'https:' : 'http:';
      const target = { scheme, hostname: options.hostname, port: Number(options.port) || (scheme === 'https:' ? 443 : 80) } as const;
      resolveCheckedAddress(target, rules, resolvers).then(
        ({ address }) => {
          const name = unbracketed(options.hostname);
          connectTo({ ...options, hostname: address, servername: options.servername ?? (isIP(name) ? undefined : name) }, callback);
        },
        (error: Error) => callback(error, null),
      );
    },
  });
}

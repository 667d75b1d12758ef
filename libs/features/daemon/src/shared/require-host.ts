import { HostCatalog, HostDefinition, validationError } from '@bpc/domain';

export function requireHost(hosts: HostCatalog, hostId: number): HostDefinition {
  const host = hosts.host(hostId);
  if (!host) throw validationError('host_id', `host_id ${hostId}: host not found`);
  return host;
}

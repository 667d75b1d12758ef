import { type LogSink } from '@bpc/support';
import { FailFastRedis } from '@bpc/redis-support';
import { ExportSlots, SlotClaim, SlotHolder } from './export-slots.port';

// KEYS[1] is the hash-tagged base (`{prefix}:exports:`); the slot and counter keys derive from it, so they share one cluster slot.
// A slot's value is `<exportId>|<owner>|<questionHash>`; its PX expiry is the lease.

/** ARGV: account, owner, questionHash, leaseMs. Returns {1, id} when claimed, {0, value} naming the holder. */
const CLAIM = `
local slot = KEYS[1] .. 'slot:' .. ARGV[1]
local held = redis.call('GET', slot)
if held then return {0, held} end
local id = redis.call('INCR', KEYS[1] .. 'ids')
redis.call('SET', slot, id .. '|' .. ARGV[2] .. '|' .. ARGV[3], 'PX', ARGV[4])
return {1, tostring(id)}
`;

/** ARGV: account, exportId, leaseMs (0: release). Acts only when the slot holds that export. */
const RENEW_OR_RELEASE = `
local slot = KEYS[1] .. 'slot:' .. ARGV[1]
local held = redis.call('GET', slot)
if not held or string.match(held, '^(%d+)|') ~= ARGV[2] then return 0 end
if tonumber(ARGV[3]) == 0 then redis.call('DEL', slot) else redis.call('PEXPIRE', slot, ARGV[3]) end
return 1
`;

/** ARGV: exportId. Raises the counter to at least that id. */
const RESERVE = `
local current = tonumber(redis.call('GET', KEYS[1] .. 'ids') or '0')
if current < tonumber(ARGV[1]) then redis.call('SET', KEYS[1] .. 'ids', ARGV[1]) end
return 1
`;

export interface RedisExportSlotsOptions {
  readonly url: string;
  /** Every key lives under the hash tag `{<keyPrefix>}:` (default `bpc`). */
  readonly keyPrefix?: string;
  readonly log?: LogSink;
}

/** Slots and the id counter in Redis, shared by every public-api replica (cluster mode); the lease is the key's PX expiry. */
export class RedisExportSlots implements ExportSlots {
  readonly shared = true;
  private readonly redis: FailFastRedis;
  private readonly base: string;

  constructor(options: RedisExportSlotsOptions) {
    this.base = `{${options.keyPrefix ?? 'bpc'}}:exports:`;
    this.redis = new FailFastRedis({
      url: options.url,
      label: 'export slots',
      scripts: { bpcExportClaim: CLAIM, bpcExportRenew: RENEW_OR_RELEASE, bpcExportReserve: RESERVE },
      log: options.log,
    });
  }

  async claim(accountId: string, owner: string, questionHash: string, leaseMs: number): Promise<SlotClaim> {
    const [claimed, value] = (await this.redis.runScript('bpcExportClaim', this.base, [accountId, owner.replace(/\|/g, '_'), questionHash, Math.max(1, Math.ceil(leaseMs))])) as [number, string];
    if (Number(claimed) === 1) return { claimed: true, exportId: Number(value) };
    return { claimed: false, holder: parseHolder(value) };
  }

  async renew(accountId: string, exportId: number, leaseMs: number): Promise<boolean> {
    return Number(await this.redis.runScript('bpcExportRenew', this.base, [accountId, String(exportId), Math.max(1, Math.ceil(leaseMs))])) === 1;
  }

  async release(accountId: string, exportId: number): Promise<boolean> {
    return Number(await this.redis.runScript('bpcExportRenew', this.base, [accountId, String(exportId), 0])) === 1;
  }

  async holder(accountId: string): Promise<SlotHolder | undefined> {
    const value = await this.redis.call((r) => r.get(`${this.base}slot:${accountId}`));
    return value === null ? undefined : parseHolder(value);
  }

  async isLive(accountId: string, exportId: number): Promise<boolean> {
    return (await this.holder(accountId))?.exportId === exportId;
  }

  async reserveIdsUpTo(exportId: number): Promise<void> {
    await this.redis.runScript('bpcExportReserve', this.base, [exportId]);
  }

  async check(): Promise<void> {
    await this.redis.call((r) => r.ping());
  }

  close(): Promise<void> {
    return this.redis.close();
  }
}

function parseHolder(value: string): SlotHolder {
  const [id, owner, questionHash] = value.split('|');
  return { exportId: Number(id), owner: owner ?? '', questionHash: questionHash ?? '' };
}

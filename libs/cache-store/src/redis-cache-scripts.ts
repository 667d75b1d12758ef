import { POSITIONED_MUTATION_LUA } from '@bpc/redis-support';

/**
 * Lua scripts of the Redis cache store. Each runs atomically inside Redis, so
 * render-wins and the switch, or an invalidation, its count and its
 * projection checkpoint, happen together or not at all.
 *
 * Key layout (P = `{<keyPrefix>}:`, one hash tag so every script touches a
 * single cluster slot; `cache:` keeps these keys apart from the queue store's
 * under the same prefix, notably the checkpoints):
 *   P..'cache:e:<host>'        HASH   '<dimensionId>|<url>' -> '<kind>|<expiresAt>|<entry JSON>'
 *   P..'cache:checkpoints'     HASH   stream -> last applied offset
 *   P..'cache:r:<eventId>'     STRING result of a positioned invalidation, with a TTL
 *
 * The kind and expiry lead the value so the scripts judge render-wins with
 * string matching, without decoding JSON (cjson would round 13-digit times).
 */

export const CACHE_SCRIPTS = {
  /**
   * KEYS[1] host hash; ARGV[1] field, ARGV[2] incoming kind, ARGV[3] incoming
   * createdAt, ARGV[4] new value. Answers {1, replaced value or ''} when
   * stored, {0, ''} when a fresh render wins over a bypass.
   */
  bpcCachePut: `
local current = redis.call('HGET', KEYS[1], ARGV[1])
if current and ARGV[2] == 'bypass' then
  local kind, expiresAt = string.match(current, '^([^|]*)|([^|]*)|')
  if kind == 'render' and tonumber(expiresAt) > tonumber(ARGV[3]) then return { 0, '' } end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[4])
return { 1, current or '' }
`,
  /**
   * KEYS[1] host hash; ARGV[1] P, ARGV[2] stream ('' when unpositioned),
   * ARGV[3] offset, ARGV[4] result key, ARGV[5] result TTL (ms), ARGV[6..]
   * fields. Answers {1, count, dropped values...} when applied and
   * {0, recorded count or nil} when the position was already applied.
   */
  bpcCacheInvalidate: `
local CHECKPOINTS = ARGV[1] .. 'cache:checkpoints'
${POSITIONED_MUTATION_LUA}
local replay = alreadyApplied()
if replay then return replay end
local dropped = { 1, 0 }
for i = 6, #ARGV do
  local value = redis.call('HGET', KEYS[1], ARGV[i])
  if value then
    redis.call('HDEL', KEYS[1], ARGV[i])
    dropped[#dropped + 1] = value
  end
end
dropped[2] = #dropped - 2
appliedWith(tostring(dropped[2]))
return dropped
`,
  /**
   * KEYS[1] checkpoints hash; ARGV[1] stream, ARGV[2] offset. Moves the
   * stream's checkpoint forward, never back (offsets compared as decimal text).
   */
  bpcCacheAdvance: `
local applied = redis.call('HGET', KEYS[1], ARGV[1])
if applied and (#ARGV[2] < #applied or (#ARGV[2] == #applied and ARGV[2] <= applied)) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
`,
} as const;

export type CacheScriptName = keyof typeof CACHE_SCRIPTS;

import { POSITIONED_MUTATION_LUA } from '@bpc/redis-support';

/**
 * Lua scripts of the Redis cache store. Each runs atomically inside Redis, so
 * a put's compare-and-switch, or an invalidation, its count and its
 * projection checkpoint, happen together or not at all.
 *
 * Key layout (P = `{<keyPrefix>}:`, one hash tag so every script touches a
 * single cluster slot; `cache:` keeps these keys apart from the queue store's
 * under the same prefix, notably the checkpoints):
 *   P..'cache:e:<host>'        HASH   '<dimensionId>|<url>' -> '<kind>|<expiresAt>|<entry JSON>'
 *   P..'cache:u:<host>'        ZSET   score 0, '<url>\0<dimensionId, 10 digits>' per entry (see
 *                                     `indexMember`): the host's keys in listing order, changed with
 *                                     the hash by the same script so both always hold the same keys
 *   P..'cache:b:<host>'        SET    the body paths the host's entries name, changed with the hash
 *                                     by the same script: what the orphan sweep must never take (bodies
 *                                     of earlier versions are not in it and never swept, see `isTracked`)
 *   P..'cache:d:<host>'        ZSET   bodies the host's entries stopped naming (replaced, invalidated), scored
 *                                     by when (Redis TIME, ms), kept for the removal grace period: the
 *                                     sweep leaves them to readers that got their entry just before
 *   P..'cache:x:<body path>'   STRING a body the orphan sweep claimed (with a TTL): no put may switch to it
 *   P..'cache:checkpoints'     HASH   stream -> last applied offset
 *   P..'cache:r:<eventId>'     STRING result of a positioned invalidation, with a TTL
 *
 * The kind and expiry lead the value: scripts of earlier versions judged
 * render-wins from them; values stored then are still read the same way.
 */

/** Lua: Redis' clock in ms (one clock for every replica), and the retirement of a body its entry stopped naming. */
const RETIRE_BODY_LUA = `
local function nowMs()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function retire(bodySet, retired, graceMs, bodyPath)
  local now = nowMs()
  redis.call('SREM', bodySet, bodyPath)
  redis.call('ZREMRANGEBYSCORE', retired, '-inf', '(' .. (now - graceMs))
  redis.call('ZADD', retired, now, bodyPath)
end
`;

/** Lua: the index member of a hash field (`indexMember` in entry-index.ts). */
const MEMBER_OF_FIELD_LUA = `
local function memberOf(field)
  local bar = string.find(field, '|', 1, true)
  local dim = string.sub(field, 1, bar - 1)
  return string.sub(field, bar + 1) .. string.char(0) .. string.rep('0', 10 - #dim) .. dim
end
`;

export const CACHE_SCRIPTS = {
  /**
   * KEYS[1] host hash; ARGV[1] field, ARGV[2] the value the caller decided
   * against ('' when there was none), ARGV[3] new value, ARGV[4] host index,
   * ARGV[5] index member, ARGV[6] host body set, ARGV[7] the new body's
   * path, ARGV[8] the replaced entry's body path ('' when none), ARGV[9] the
   * new body's claim key, ARGV[10] host's retired bodies, ARGV[11] removal
   * grace period (ms). Switches the field to the new value only if it
   * still holds what the caller saw: render-wins is decided once, in
   * TypeScript (`putDecision`), and this script only applies the decision.
   * Answers {1, replaced value or ''} when switched, {0, value now or ''}
   * when the entry changed meanwhile (the caller decides again), {-1, ''}
   * when the orphan sweep claimed the new body (the caller writes another).
   */
  bpcCacheSwap: `
${RETIRE_BODY_LUA}
if redis.call('EXISTS', ARGV[9]) == 1 then return { -1, '' } end
local current = redis.call('HGET', KEYS[1], ARGV[1])
if (current or '') ~= ARGV[2] then return { 0, current or '' } end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
if not current then redis.call('ZADD', ARGV[4], 0, ARGV[5]) end
redis.call('SADD', ARGV[6], ARGV[7])
if ARGV[8] ~= '' then retire(ARGV[6], ARGV[10], tonumber(ARGV[11]), ARGV[8]) end
return { 1, current or '' }
`,
  /**
   * KEYS[1] host hash; ARGV[1] P, ARGV[2] stream ('' when unpositioned),
   * ARGV[3] offset, ARGV[4] result key, ARGV[5] result TTL (ms), ARGV[6]
   * host index, ARGV[7] host body set, ARGV[8] host's retired bodies,
   * ARGV[9] removal grace period (ms), ARGV[10..] fields. Answers {1, count,
   * dropped values...} when applied and {0, recorded count or nil} when the
   * position was already applied.
   */
  bpcCacheInvalidate: `
local CHECKPOINTS = ARGV[1] .. 'cache:checkpoints'
${POSITIONED_MUTATION_LUA}
${MEMBER_OF_FIELD_LUA}
${RETIRE_BODY_LUA}
local replay = alreadyApplied()
if replay then return replay end
local dropped = { 1, 0 }
for i = 10, #ARGV do
  local value = redis.call('HGET', KEYS[1], ARGV[i])
  if value then
    redis.call('HDEL', KEYS[1], ARGV[i])
    redis.call('ZREM', ARGV[6], memberOf(ARGV[i]))
    local second = string.find(value, '|', string.find(value, '|', 1, true) + 1, true)
    retire(ARGV[7], ARGV[8], tonumber(ARGV[9]), cjson.decode(string.sub(value, second + 1)).bodyPath)
    dropped[#dropped + 1] = value
  end
end
dropped[2] = #dropped - 2
appliedWith(tostring(dropped[2]))
return dropped
`,
  /**
   * KEYS[1] host hash; ARGV[1] host index, ARGV[2] and ARGV[3] the lex range
   * (ZRANGEBYLEX bounds), ARGV[4] offset, ARGV[5] count, ARGV[6] '1' to skip
   * the index check. Answers {total in range, values of the page's
   * entries...}, read in one step, or {-1} when the index does not hold as
   * many keys as the hash (entries written before the index existed, or by a
   * replica of an older version): then re-index (bpcCacheIndexFields,
   * bpcCacheUnindexGone) and ask again.
   */
  bpcCacheList: `
if ARGV[6] ~= '1' and redis.call('HLEN', KEYS[1]) ~= redis.call('ZCARD', ARGV[1]) then return { -1 } end
local reply = { redis.call('ZLEXCOUNT', ARGV[1], ARGV[2], ARGV[3]) }
if tonumber(ARGV[5]) > 0 then
  for _, member in ipairs(redis.call('ZRANGEBYLEX', ARGV[1], ARGV[2], ARGV[3], 'LIMIT', ARGV[4], ARGV[5])) do
    local url, dim = string.match(member, '^(.*)%z(%d+)$')
    reply[#reply + 1] = redis.call('HGET', KEYS[1], tostring(tonumber(dim)) .. '|' .. url)
  end
end
return reply
`,
  /**
   * KEYS[1] host hash; ARGV[1] host index, ARGV[2..] hash fields (a batch
   * of an HSCAN). Indexes those still in the hash, each checked and added in
   * this one step, so an invalidation running meanwhile is never undone.
   * Answers how many members were added.
   */
  bpcCacheIndexFields: `
${MEMBER_OF_FIELD_LUA}
local added = 0
for i = 2, #ARGV do
  if redis.call('HEXISTS', KEYS[1], ARGV[i]) == 1 then added = added + redis.call('ZADD', ARGV[1], 0, memberOf(ARGV[i])) end
end
return added
`,
  /**
   * KEYS[1] host hash; ARGV[1] host index, ARGV[2..] index members. Removes
   * the members whose entry is no longer in the hash. Answers how many.
   */
  bpcCacheUnindexGone: `
local removed = 0
for i = 2, #ARGV do
  local url, dim = string.match(ARGV[i], '^(.*)%z(%d+)$')
  if not url or redis.call('HEXISTS', KEYS[1], tostring(tonumber(dim)) .. '|' .. url) == 0 then removed = removed + redis.call('ZREM', ARGV[1], ARGV[i]) end
end
return removed
`,
  /**
   * KEYS[1] host body set; ARGV[1] claim key prefix, ARGV[2] claim TTL (ms),
   * ARGV[3] host's retired bodies, ARGV[4] removal grace period (ms),
   * ARGV[5..] body paths the orphan sweep found old enough. Claims those no
   * entry names and none stopped naming within the grace period, in this
   * one step: from then on no put switches to them (bpcCacheSwap), so
   * removing them can never break an entry. A body another sweep claimed
   * already is left to it (a sweep that died meanwhile: claimable again once
   * the claim expires). Answers the paths claimed here.
   */
  bpcCacheClaimOrphans: `
${RETIRE_BODY_LUA}
redis.call('ZREMRANGEBYSCORE', ARGV[3], '-inf', '(' .. (nowMs() - tonumber(ARGV[4])))
local claimed = {}
for i = 5, #ARGV do
  if redis.call('SISMEMBER', KEYS[1], ARGV[i]) == 0 and not redis.call('ZSCORE', ARGV[3], ARGV[i]) and redis.call('SET', ARGV[1] .. ARGV[i], '1', 'PX', ARGV[2], 'NX') then
    claimed[#claimed + 1] = ARGV[i]
  end
end
return claimed
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

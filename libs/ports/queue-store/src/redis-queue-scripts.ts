import { POSITIONED_MUTATION_LUA } from '@bpc/redis-support';
import { queueRulesLua } from './redis-queue-rules-lua';

/**
 * Lua scripts of the Redis queue store. Each runs atomically inside Redis, so
 * a mutation and its projection checkpoint change together or not at all.
 *
 * They evaluate the domain's queue decisions (`libs/core/domain/src/queue/rules`:
 * `decideEnqueue`, `returnToQueue`, `decideClaim`, …) inside Redis, because a
 * claim under contention must be decided atomically there. Their rule values
 * (drain order, the merge of two placements of one key, when a due time,
 * lease end or pause deadline is reached) are not written here: the prelude
 * is generated from the domain's `QUEUE_RULE_TABLE` (`redis-queue-rules-lua.ts`).
 * The steps around them (host rotation, one entry per host per round, dedup
 * of a request's items) follow the domain's functions of the same name, and
 * the model contract suite runs generated call sequences against this store
 * and the domain's rules and compares every answer. Purge, settle, pause and
 * resume are decided in TypeScript and applied by APPLY. Entries due at the
 * same time are served in key order, the ZSET's member order, as the table's
 * `dueTies` says. One thing the port leaves open differs from the memory
 * store: leases expiring together return in claim id order (the memory store
 * returns them in the order they were taken).
 *
 * Key layout (P = `{<keyPrefix>}:`, one hash tag so every script touches a
 * single cluster slot):
 *   P..'q:<host>:<priority>'  ZSET  member = queueEntryKey, score = dueAt (ms)
 *   P..'e:<host>'             HASH  queueEntryKey -> '<priority>|<attempt>|<mode>|<trigger>|<entryId>'
 *                                   (values written before triggers existed lack '<trigger>|' and read as none)
 *   P..'hosts'                SET   hosts having queued entries
 *   P..'v:<host>'             STRING version of the host's queued entries, bumped by every change to them
 *   P..'pauses'               HASH  host -> pause deadline (ms)
 *   P..'leases'               ZSET  claimId, score = leaseUntil (ms)
 *   P..'claims'               HASH  claimId -> JSON of the claimed entry
 *   P..'cursor'               STRING host served last by claim (rotation start)
 *   P..'checkpoints'          HASH  stream -> last applied offset
 *   P..'done:<host>:<priority>' HASH completion bucket start (ms) -> claims completed or given up
 *                                   in it; buckets out of the window are deleted as new ones count
 *   P..'r:<eventId>'          STRING JSON result of a positioned mutation, with a TTL
 *
 * Every script receives KEYS[1] = P..'hosts' (so a cluster client routes it
 * to the slot of the hash tag) and ARGV[1] = P; the other keys are derived
 * from P inside the script, all in the same slot.
 *
 * Positioned mutations take ARGV[2] stream ('' when unpositioned), ARGV[3]
 * offset, ARGV[4] result key and ARGV[5] result TTL (ms), then their own
 * arguments from ARGV[6]; they answer {1, resultJson} when applied and
 * {0, recordedResultJson or nil} when the position was already applied.
 */

const PRELUDE = `
local P = ARGV[1]
local HOSTS = P .. 'hosts'
local PAUSES = P .. 'pauses'
local LEASES = P .. 'leases'
local CLAIMS = P .. 'claims'
local CURSOR = P .. 'cursor'
local CHECKPOINTS = P .. 'checkpoints'
${queueRulesLua()}
local function qkey(host, priority) return P .. 'q:' .. host .. ':' .. priority end
local function ekey(host) return P .. 'e:' .. host end
-- Bumped by every change to a host's queued entries, so a decision made on a read of them applies only if nothing changed since.
local function vkey(host) return P .. 'v:' .. host end
local function bumpVersion(host) redis.call('INCR', vkey(host)) end

local function encode(priority, attempt, mode, trigger, entryId)
  return priority .. '|' .. attempt .. '|' .. mode .. '|' .. trigger .. '|' .. entryId
end
local function decode(value)
  local priority, attempt, mode, trigger, entryId = string.match(value, '^([^|]*)|([^|]*)|([^|]*)|([^|]*)|(.*)$')
  if not priority then
    priority, attempt, mode, entryId = string.match(value, '^([^|]*)|([^|]*)|([^|]*)|(.*)$')
    trigger = ''
  end
  return priority, tonumber(attempt), mode, entryId, trigger
end

-- The domain's pausedAt; no deadline, or an unreadable one (nil, false), is no pause.
local function pausedAt(deadline, now)
  if not deadline then return false end
  return not reached(deadline, now)
end
`;


/**
 * One entry per key: when a claimed entry returns (retry or expired lease)
 * while a newer request queued the same key, the queued entry survives with
 * its id and attempt count, its other fields merged by the rule table (the
 * domain's `returnToQueue` and `mergeEntry`).
 */
const REQUEUE = `
local function requeue(host, key, priority, dueAt, attempt, mode, entryId, trigger)
  local ek = ekey(host)
  bumpVersion(host)
  local value = redis.call('HGET', ek, key)
  if not value then
    redis.call('ZADD', qkey(host, priority), dueAt, key)
    redis.call('HSET', ek, key, encode(priority, attempt, mode, trigger or '', entryId))
    redis.call('SADD', HOSTS, host)
    return
  end
  local queuedPriority, queuedAttempt, queuedMode, queuedId, queuedTrigger = decode(value)
  -- The returning entry is the older placement, the queued one the newer.
  local target = mergePriority(priority, queuedPriority)
  local score = mergeDue(dueAt, tonumber(redis.call('ZSCORE', qkey(host, queuedPriority), key)) or dueAt)
  if target ~= queuedPriority then redis.call('ZREM', qkey(host, queuedPriority), key) end
  redis.call('ZADD', qkey(host, target), score, key)
  redis.call('HSET', ek, key, encode(target, queuedAttempt, mergeMode(mode, queuedMode), queuedTrigger, queuedId))
end
`;

/**
 * The domain's `decideEnqueue`.
 * ARGV[6] host, [7] priority, [8] dueAt, [9] entryId, [10] trigger ('' none),
 * [11..] one per distinct item: a mode letter ('-' none, 'r' render, 'b' bypass) followed by the key.
 * Work goes in chunks of CHUNK keys: one HMGET to read, then one ZADD / ZREM /
 * HSET per chunk and queue, instead of one call per item (unpack is bounded
 * by Lua's C stack, about 8000 values).
 */
const ENQUEUE = `${PRELUDE}${POSITIONED_MUTATION_LUA}
local done = alreadyApplied()
if done then return done end

local host, priority, dueAt, entryId, trigger = ARGV[6], ARGV[7], tonumber(ARGV[8]), ARGV[9], ARGV[10]
local ek = ekey(host)
local MODES = { ['-'] = '', r = 'render', b = 'bypass' }
local FIRST, CHUNK = 11, 1000
local created, promoted = 0, 0
-- Every entry this request creates has the same value but for its mode.
local freshValue = {}
for _, mode in pairs(MODES) do freshValue[mode] = encode(priority, 0, mode, trigger, entryId) end

for start = FIRST, #ARGV, CHUNK do
  local stop = math.min(start + CHUNK - 1, #ARGV)
  local keys, modes = {}, {}
  for i = start, stop do
    keys[#keys + 1] = string.sub(ARGV[i], 2)
    modes[#modes + 1] = MODES[string.sub(ARGV[i], 1, 1)]
  end
  local current = redis.call('HMGET', ek, unpack(keys))
  local hset, zadd, keepEarlier, moveOut = {}, {}, {}, {}
  for j = 1, #keys do
    local key, mode, value = keys[j], modes[j], current[j]
    if not value then
      created = created + 1
      zadd[#zadd + 1] = dueAt
      zadd[#zadd + 1] = key
      hset[#hset + 1] = key
      hset[#hset + 1] = freshValue[mode]
    else
      -- The queued entry is the older placement, the request the newer.
      local was, attempt, wasMode = decode(value)
      local newMode = mergeMode(wasMode, mode)
      if mergePriority(was, priority) ~= was then
        promoted = promoted + 1
        local score = tonumber(redis.call('ZSCORE', qkey(host, was), key)) or dueAt
        moveOut[was] = moveOut[was] or {}
        table.insert(moveOut[was], key)
        zadd[#zadd + 1] = mergeDue(score, dueAt)
        zadd[#zadd + 1] = key
        hset[#hset + 1] = key
        hset[#hset + 1] = encode(priority, attempt, newMode, trigger, entryId)
      else
        keepEarlier[was] = keepEarlier[was] or {}
        table.insert(keepEarlier[was], dueAt)
        table.insert(keepEarlier[was], key)
        -- The entry now answers to the latest request that queued it (its id and trigger).
        hset[#hset + 1] = key
        hset[#hset + 1] = encode(was, attempt, newMode, trigger, entryId)
      end
    end
  end
  for was, members in pairs(moveOut) do redis.call('ZREM', qkey(host, was), unpack(members)) end
  if #zadd > 0 then redis.call('ZADD', qkey(host, priority), unpack(zadd)) end
  -- An entry requested again merges its two due times in the ZADD itself.
  for was, pairs_ in pairs(keepEarlier) do redis.call('ZADD', qkey(host, was), DUE_MERGE_ZADD, unpack(pairs_)) end
  if #hset > 0 then redis.call('HSET', ek, unpack(hset)) end
end

local enqueued = #ARGV - FIRST + 1
if enqueued > 0 then
  redis.call('SADD', HOSTS, host)
  bumpVersion(host)
end
return appliedWith('{"enqueued":' .. enqueued .. ',"created":' .. created .. ',"promoted":' .. promoted .. '}')
`;

/**
 * ARGV[2] host, [3..] entry keys. What the domain's host decisions
 * (`decidePurge`, `decideSettle`) read of a host: its version (see APPLY),
 * the number of queued entries per priority in drain order, then per key its
 * stored value (false when not queued) and due time.
 */
const READ_HOST = `${PRELUDE}
local host = ARGV[2]
local out = { redis.call('GET', vkey(host)) or '0' }
for _, priority in ipairs(PRIORITIES) do out[#out + 1] = redis.call('ZCARD', qkey(host, priority)) end
local ek = ekey(host)
for i = 3, #ARGV do
  local value = redis.call('HGET', ek, ARGV[i])
  out[#out + 1] = value
  out[#out + 1] = value and redis.call('ZSCORE', qkey(host, decode(value)), ARGV[i]) or false
end
return out
`;

/**
 * Applies events the domain decided for one host, decides nothing. ARGV[6]
 * host, [7] the host version the decision read ('' when it read nothing),
 * [8] the decision's result (JSON), [9..] events, each a name and its fields:
 *   'entry-removed', key        'queues-purged', count, priorities…
 *   'host-paused', deadline     'pause-lifted'
 * Answers {-1} without a change when the host's version moved since the
 * read (the caller reads and decides again).
 */
const APPLY = `${PRELUDE}${POSITIONED_MUTATION_LUA}
local done = alreadyApplied()
if done then return done end
local host = ARGV[6]
if ARGV[7] ~= '' and (redis.call('GET', vkey(host)) or '0') ~= ARGV[7] then return { -1 } end

local ek = ekey(host)
local i = 9
while i <= #ARGV do
  local event = ARGV[i]
  if event == 'entry-removed' then
    local value = redis.call('HGET', ek, ARGV[i + 1])
    if value then
      redis.call('ZREM', qkey(host, decode(value)), ARGV[i + 1])
      redis.call('HDEL', ek, ARGV[i + 1])
    end
    i = i + 2
  elseif event == 'queues-purged' then
    local count = tonumber(ARGV[i + 1])
    for p = i + 2, i + 1 + count do
      local qk = qkey(host, ARGV[p])
      local members = redis.call('ZRANGE', qk, 0, -1)
      for start = 1, #members, 4000 do
        redis.call('HDEL', ek, unpack(members, start, math.min(start + 3999, #members)))
      end
      redis.call('DEL', qk)
    end
    i = i + 2 + count
  elseif event == 'host-paused' then
    redis.call('HSET', PAUSES, host, ARGV[i + 1])
    i = i + 2
  elseif event == 'pause-lifted' then
    redis.call('HDEL', PAUSES, host)
    i = i + 1
  else
    return redis.error_reply('unknown queue event ' .. tostring(event))
  end
end
if #ARGV >= 9 then
  bumpVersion(host)
  if redis.call('HLEN', ek) == 0 then redis.call('SREM', HOSTS, host) end
end
return appliedWith(ARGV[8])
`;

/** ARGV[2] now. Answers host, deadline pairs; expired pauses are removed on the way. */
const PAUSED_HOSTS = `${PRELUDE}
local now = tonumber(ARGV[2])
local all = redis.call('HGETALL', PAUSES)
local paused = {}
for i = 1, #all, 2 do
  local untilMs = tonumber(all[i + 1])
  -- An unreadable deadline is not a pause: the host drains (the claim reports it).
  if pausedAt(untilMs, now) then
    paused[#paused + 1] = all[i]
    paused[#paused + 1] = all[i + 1]
  elseif untilMs then
    redis.call('HDEL', PAUSES, all[i])
  end
end
return paused
`;

/**
 * ARGV[2] now, [3..] hosts to include even without entries. Answers, per
 * host: host, then total and due count for each priority in drain order.
 * ZCARD is O(1) and ZCOUNT O(log n), so the cost follows hosts, not entries.
 */
const COUNTS = `${PRELUDE}
local now = ARGV[2]
local listed, hosts = {}, {}
for _, host in ipairs(redis.call('SMEMBERS', HOSTS)) do
  listed[host] = true
  hosts[#hosts + 1] = host
end
for i = 3, #ARGV do
  if not listed[ARGV[i]] then
    listed[ARGV[i]] = true
    hosts[#hosts + 1] = ARGV[i]
  end
end
local out = {}
for _, host in ipairs(hosts) do
  out[#out + 1] = host
  for _, priority in ipairs(PRIORITIES) do
    local qk = qkey(host, priority)
    out[#out + 1] = redis.call('ZCARD', qk)
    out[#out + 1] = redis.call('ZCOUNT', qk, '-inf', reachedUpTo(now))
  end
end
return out
`;

/**
 * ARGV[2] now, [3] limit, [4] leaseUntil, [5] claim id base (unique per call).
 * 1. Leases ending at or before now go back to their queues (crash recovery;
 *    the domain's `decideLeaseExpiry`). Steps 2 and 3 are its `decideClaim`.
 * 2. Hosts not paused at now are ordered by id, starting after the host
 *    served last (P..'cursor').
 * 3. Per priority in drain order, each host offers up to the remaining number
 *    of its due entries, earliest first; entries are taken one per host per
 *    round until the limit. Taken entries leave their queue and are leased.
 * Answers the number of expired leases put back, then 9 fields per claim:
 * claimId, host, key, priority, attempt, mode, entryId, leaseUntil, trigger.
 */
const CLAIM = `${PRELUDE}${REQUEUE}
local now, limit, leaseUntil, base = ARGV[2], tonumber(ARGV[3]), ARGV[4], ARGV[5]

local expired = redis.call('ZRANGEBYSCORE', LEASES, '-inf', reachedUpTo(now))
for _, claimId in ipairs(expired) do
  local raw = redis.call('HGET', CLAIMS, claimId)
  if raw then
    local c = cjson.decode(raw)
    requeue(c.h, c.k, c.p, c.d, c.a, c.m, c.i, c.t)
    redis.call('HDEL', CLAIMS, claimId)
  end
end
if #expired > 0 then redis.call('ZREMRANGEBYSCORE', LEASES, '-inf', reachedUpTo(now)) end

local eligible, unreadable = {}, {}
for _, host in ipairs(redis.call('SMEMBERS', HOSTS)) do
  local pausedUntil = redis.call('HGET', PAUSES, host)
  local untilMs = pausedUntil and tonumber(pausedUntil)
  -- A pause that cannot be read does not stop draining (the daemon logs it).
  if pausedUntil and not untilMs then unreadable[#unreadable + 1] = host end
  if not pausedAt(untilMs, now) then eligible[#eligible + 1] = tonumber(host) end
end
table.sort(eligible)
local start = 1
local lastServed = tonumber(redis.call('GET', CURSOR) or '')
if lastServed then
  for i, host in ipairs(eligible) do
    if host > lastServed then start = i break end
  end
end
local order = {}
for i = start, #eligible do order[#order + 1] = eligible[i] end
for i = 1, start - 1 do order[#order + 1] = eligible[i] end

local out, taken, touched = { #expired, table.concat(unreadable, ',') }, 0, {}
local served = nil
local function take(host, priority, key, score)
  local ek = ekey(host)
  local value = redis.call('HGET', ek, key)
  redis.call('ZREM', qkey(host, priority), key)
  -- Never expected (both keys change together); if it happens, drop the orphan rather than fail midway.
  if not value then return end
  local _, attempt, mode, entryId, trigger = decode(value)
  redis.call('HDEL', ek, key)
  taken = taken + 1
  local claimId = base .. '-' .. taken
  redis.call('HSET', CLAIMS, claimId, cjson.encode({ h = host, k = key, p = priority, d = score, a = attempt, m = mode, i = entryId, t = trigger }))
  redis.call('ZADD', LEASES, leaseUntil, claimId)
  touched[host] = true
  served = host
  for _, field in ipairs({ claimId, host, key, priority, attempt, mode, entryId, leaseUntil, trigger }) do out[#out + 1] = field end
end

for _, priority in ipairs(PRIORITIES) do
  if taken >= limit then break end
  local offers = {}
  for _, host in ipairs(order) do
    local due = redis.call('ZRANGEBYSCORE', qkey(host, priority), '-inf', reachedUpTo(now), 'WITHSCORES', 'LIMIT', 0, limit - taken)
    if #due > 0 then offers[#offers + 1] = { host = host, due = due } end
  end
  local round = 0
  local more = #offers > 0
  while more and taken < limit do
    more = false
    round = round + 1
    for _, offer in ipairs(offers) do
      local at = round * 2 - 1
      if taken < limit and offer.due[at] then
        take(offer.host, priority, offer.due[at], offer.due[at + 1])
        more = true
      end
    end
  end
end

for host in pairs(touched) do
  bumpVersion(host)
  if redis.call('HLEN', ekey(host)) == 0 then redis.call('SREM', HOSTS, host) end
end
if served then redis.call('SET', CURSOR, served) end
return out
`;

/**
 * ARGV[2] claimId, [3] now, [4] bucket length (ms), [5] window (ms).
 * Releases the claim if it still exists (complete, giveUp) and counts it in
 * its host and priority's completion bucket of now; buckets that left the
 * window are deleted, and an idle counter expires with its window.
 */
const RELEASE = `${PRELUDE}
local raw = redis.call('HGET', CLAIMS, ARGV[2])
if not raw then return 0 end
redis.call('HDEL', CLAIMS, ARGV[2])
redis.call('ZREM', LEASES, ARGV[2])
local c = cjson.decode(raw)
local now, bucketMs, windowMs = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local bucket = math.floor(now / bucketMs) * bucketMs
local dk = P .. 'done:' .. c.h .. ':' .. c.p
redis.call('HINCRBY', dk, string.format('%d', bucket), 1)
for _, field in ipairs(redis.call('HKEYS', dk)) do
  if tonumber(field) <= bucket - windowMs then redis.call('HDEL', dk, field) end
end
redis.call('PEXPIRE', dk, windowMs + bucketMs)
return 1
`;

/**
 * ARGV[2] now, [3] bucket length (ms), [4] window (ms), [5..] hosts.
 * Answers per host: host, then the completions in the window for each
 * priority in drain order.
 */
const RECENT_COMPLETIONS = `${PRELUDE}
local now, bucketMs, windowMs = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local current = math.floor(now / bucketMs) * bucketMs
local out = {}
for i = 5, #ARGV do
  out[#out + 1] = ARGV[i]
  for _, priority in ipairs(PRIORITIES) do
    local sum = 0
    local flat = redis.call('HGETALL', P .. 'done:' .. ARGV[i] .. ':' .. priority)
    for j = 1, #flat, 2 do
      local bucket = tonumber(flat[j])
      if bucket > current - windowMs and bucket <= now then sum = sum + tonumber(flat[j + 1]) end
    end
    out[#out + 1] = sum
  end
end
return out
`;

/**
 * ARGV[2] host, [3] now. Answers the entry keys of the host's live claims
 * (lease ending after now). Claims are the work in flight, a few per daemon,
 * so reading them all stays cheap.
 */
const CLAIMED_KEYS = `${PRELUDE}
local out = {}
for _, claimId in ipairs(redis.call('ZRANGEBYSCORE', LEASES, notReachedFrom(ARGV[3]), '+inf')) do
  local raw = redis.call('HGET', CLAIMS, claimId)
  if raw then
    local c = cjson.decode(raw)
    if tostring(c.h) == ARGV[2] then out[#out + 1] = c.k end
  end
end
return out
`;

/** ARGV[2] claimId, [3] dueAt, [4] attempts made. Back to the queue with that many more attempts, if the claim still exists. */
const RETRY = `${PRELUDE}${REQUEUE}
local raw = redis.call('HGET', CLAIMS, ARGV[2])
if not raw then return 0 end
local c = cjson.decode(raw)
redis.call('HDEL', CLAIMS, ARGV[2])
redis.call('ZREM', LEASES, ARGV[2])
requeue(c.h, c.k, c.p, ARGV[3], c.a + tonumber(ARGV[4]), c.m, c.i, c.t)
return 1
`;

export const QUEUE_SCRIPTS = {
  bpcQueueEnqueue: ENQUEUE,
  bpcQueueReadHost: READ_HOST,
  bpcQueueApply: APPLY,
  bpcQueuePausedHosts: PAUSED_HOSTS,
  bpcQueueCounts: COUNTS,
  bpcQueueClaim: CLAIM,
  bpcQueueRelease: RELEASE,
  bpcQueueRetry: RETRY,
  bpcQueueRecentCompletions: RECENT_COMPLETIONS,
  bpcQueueClaimedKeys: CLAIMED_KEYS,
} as const;

export type QueueScriptName = keyof typeof QUEUE_SCRIPTS;

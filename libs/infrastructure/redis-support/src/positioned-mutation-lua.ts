/**
 * Lua shared by the scripts of a store that a projection writes at log
 * positions. Expects `CHECKPOINTS` (the hash of applied offsets per stream)
 * defined before it, and the script's ARGV[2] stream ('' when unpositioned),
 * ARGV[3] offset, ARGV[4] the event's result key, ARGV[5] the result's TTL (ms).
 *
 * `alreadyApplied()` answers `{ 0, recorded result }` for an offset at or
 * below the stream's checkpoint, or for an event whose result is still kept
 * (the same event stored again at a later offset by a producer's retry: the
 * checkpoint moves past it); nil when the mutation is new. `appliedWith(r)`
 * records the checkpoint and the result and answers `{ 1, r }`.
 */
export const POSITIONED_MUTATION_LUA = `
-- Offsets are decimal strings that may exceed 2^53: compare length, then text.
local function atOrBelow(offset, applied)
  if #offset ~= #applied then return #offset < #applied end
  return offset <= applied
end

local function alreadyApplied()
  local stream = ARGV[2]
  if stream == '' then return nil end
  local applied = redis.call('HGET', CHECKPOINTS, stream)
  if applied and atOrBelow(ARGV[3], applied) then
    return { 0, redis.call('GET', ARGV[4]) }
  end
  -- The same event again at a later offset (a producer's retry stored it twice): passed, not applied twice.
  local earlier = redis.call('GET', ARGV[4])
  if earlier then
    redis.call('HSET', CHECKPOINTS, stream, ARGV[3])
    return { 0, earlier }
  end
  return nil
end

local function appliedWith(result)
  local stream = ARGV[2]
  if stream ~= '' then
    redis.call('HSET', CHECKPOINTS, stream, ARGV[3])
    redis.call('SET', ARGV[4], result, 'PX', ARGV[5])
  end
  return { 1, result }
end
`;

import { MERGE_POLICIES, QUEUE_RULE_TABLE } from '@bpc/domain';

/**
 * Each merge policy of the domain's table in Lua, over the stored forms
 * (priority names, due times as scores, '' for no mode). Typed by the
 * domain's policies, so a new policy does not compile until it has its Lua.
 */
const MERGE_POLICY_LUA: { readonly [P in keyof typeof MERGE_POLICIES]: string } = {
  higher: 'function(older, newer) if RANK[newer] < RANK[older] then return newer end return older end',
  earlier: 'function(older, newer) if tonumber(newer) < tonumber(older) then return newer end return older end',
  'newer-if-set': "function(older, newer) if newer ~= '' then return newer end return older end",
};

/** The ZADD flag that merges a new due time into a stored score by the table's due time policy. */
const DUE_MERGE_ZADD_FLAG: { readonly [P in typeof QUEUE_RULE_TABLE.merge.dueAt]: string } = { earlier: 'LT' };

/**
 * How the queues' sorted sets keep each tie order of the table. Redis orders
 * members of equal score by their bytes, and a queue's member is its entry's
 * key, so 'key-bytes' needs nothing evaluated. Typed by the table, so another
 * tie order does not compile until it has its form here (a member or score
 * that carries it).
 */
const DUE_TIE_LUA: { readonly [O in typeof QUEUE_RULE_TABLE.dueTies]: string } = {
  'key-bytes': '-- Entries due at the same time: the sorted set keeps them in member (entry key) byte order.',
};

const luaString = (value: string): string => `'${value}'`;

/**
 * The domain's `QUEUE_RULE_TABLE` as Lua, for the queue scripts' prelude:
 * the drain order and ranks, one merge function per field, when a moment is
 * reached (as a comparison and as ZRANGEBYSCORE / ZCOUNT bounds), and how
 * entries due at the same time are ordered.
 */
export function queueRulesLua(): string {
  const { drainOrder, merge, reachedWhenEqual, dueTies } = QUEUE_RULE_TABLE;
  return `
local PRIORITIES = { ${drainOrder.map(luaString).join(', ')} }
local RANK = { ${drainOrder.map((priority, i) => `${priority} = ${i + 1}`).join(', ')} }
local mergePriority = ${MERGE_POLICY_LUA[merge.priority]}
local mergeDue = ${MERGE_POLICY_LUA[merge.dueAt]}
local mergeMode = ${MERGE_POLICY_LUA[merge.mode]}
local DUE_MERGE_ZADD = ${luaString(DUE_MERGE_ZADD_FLAG[merge.dueAt])}
local function reached(at, now) return tonumber(at) ${reachedWhenEqual ? '<=' : '<'} tonumber(now) end
-- Score bounds: the last score reached at now, the first one not reached.
local function reachedUpTo(now) return ${reachedWhenEqual ? 'now' : "'(' .. now"} end
local function notReachedFrom(now) return ${reachedWhenEqual ? "'(' .. now" : 'now'} end
${DUE_TIE_LUA[dueTies]}
`;
}

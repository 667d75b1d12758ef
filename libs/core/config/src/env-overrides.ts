/** Environment variables that override configuration keys: `BPC__RECACHE__MAX_CONCURRENT=10`. */
export const ENV_OVERRIDE_PREFIX = 'BPC__';

/**
 * Applies `BPC__A__B=value` as `a.b = value` on a copy of `raw`. Values are
 * parsed as JSON when they parse (numbers, booleans, arrays, objects) and
 * taken as strings otherwise.
 */
export function applyEnvOverrides(raw: Record<string, unknown>, env: Readonly<Record<string, string | undefined>>): Record<string, unknown> {
  const result = structuredClone(raw);
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith(ENV_OVERRIDE_PREFIX) || value === undefined) continue;
    const path = name.slice(ENV_OVERRIDE_PREFIX.length).toLowerCase().split('__').filter(Boolean);
    if (path.length > 0) setPath(result, path, parseValue(value));
  }
  return result;
}

function parseValue(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node: Record<string, unknown> = target;
  for (const segment of path.slice(0, -1)) {
    const next = node[segment];
    if (typeof next !== 'object' || next === null) node[segment] = {};
    node = node[segment] as Record<string, unknown>;
  }
  node[path[path.length - 1]] = value;
}

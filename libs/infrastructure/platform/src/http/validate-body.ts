import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import { AppError, validationError } from '@bpc/domain';

export interface ValidateBodyOptions {
  /** Refuse keys the DTO does not declare (the public API does; the daemon API ignores them). */
  readonly forbidUnknownKeys: boolean;
}

/**
 * Turns a parsed JSON body into a validated DTO instance, or throws
 * VALIDATION_FAILED naming the first offending field (`urls[3]`, `host_id`).
 * Values are never coerced: "5" is not an integer.
 */
export function validateBody<T extends object>(dto: new () => T, body: unknown, options: ValidateBodyOptions): T {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AppError('VALIDATION_FAILED', 'request body must be a JSON object', 'body');
  }
  assertNestingDepth(body);
  if (options.forbidUnknownKeys) refuseReservedKeys(body, '');
  const instance = plainToInstance(dto, body, { enableImplicitConversion: false });
  const errors = validateSync(instance, {
    whitelist: options.forbidUnknownKeys,
    forbidNonWhitelisted: options.forbidUnknownKeys,
    forbidUnknownValues: true,
    stopAtFirstError: true,
  });
  if (errors.length > 0) throw firstIssue(errors[0], '');
  return instance;
}

function firstIssue(error: ValidationError, parent: string): AppError {
  const field = /^\d+$/.test(error.property) ? `${parent}[${error.property}]` : parent ? `${parent}.${error.property}` : error.property;
  const constraints = Object.entries(error.constraints ?? {});
  if (constraints.length > 0) {
    const [name, message] = constraints[0];
    return validationError(field, name === 'whitelistValidation' ? `unknown field ${field}` : message.replace(error.property, field));
  }
  const child = error.children?.[0];
  return child ? firstIssue(child, field) : validationError(field, `${field} is invalid`);
}

/** No body of the APIs nests deeper than a few levels; anything past this is refused. */
export const MAX_BODY_DEPTH = 32;

/**
 * Refuses a body nesting arrays or objects deeper than MAX_BODY_DEPTH, walking
 * it without recursion: the recursive walks after this one (reserved keys,
 * class-transformer, class-validator) overflowed the stack on 5,000 levels
 * (a 10 KB body) and answered 500.
 */
function assertNestingDepth(body: object): void {
  const pending: [unknown, number][] = [[body, 1]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [value, depth] = next;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_BODY_DEPTH) throw new AppError('VALIDATION_FAILED', `request body nests deeper than ${MAX_BODY_DEPTH} levels`, 'body');
    for (const child of Object.values(value)) pending.push([child, depth + 1]);
  }
}

/** Keys class-transformer drops before the whitelist could see them: refused as unknown wherever they appear. */
const RESERVED_KEYS = ['constructor', 'prototype', '__proto__'];

function refuseReservedKeys(value: unknown, at: string): void {
  if (typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    value.forEach((item, i) => refuseReservedKeys(item, `${at}[${i}]`));
    return;
  }
  for (const key of Object.keys(value)) {
    const field = at ? `${at}.${key}` : key;
    if (RESERVED_KEYS.includes(key)) throw validationError(field, `unknown field ${field}`);
    refuseReservedKeys((value as Record<string, unknown>)[key], field);
  }
}

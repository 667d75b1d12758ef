import { ArgumentRefusal } from './tool-result';

export type ToolArguments = Readonly<Record<string, unknown>>;

/**
 * A path parameter (`website`, `explorer`): required, a non-empty string, sent URL-encoded.
 * `.` and `..` are refused: encoding leaves them as they are, and URL normalisation
 * (fetch, `inject`) would fold them away and send the call to another route.
 */
export function pathSegment(args: ToolArguments, name: string): string {
  const value = args[name];
  if (typeof value !== 'string' || value.trim() === '') throw new ArgumentRefusal(name, `${name} is required: a non-empty string`);
  if (value === '.' || value === '..') throw new ArgumentRefusal(name, `${name} must be an id, not ${value}`);
  return encodeURIComponent(value);
}

/** An integer path parameter (`exportId`). */
export function pathInteger(args: ToolArguments, name: string): string {
  const value = args[name];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw new ArgumentRefusal(name, `${name} must be a positive integer`);
  return String(value);
}

/** The request body: every argument but the path parameters, unknown ones included, so the API names an unknown key as it would for any client. */
export function bodyOf(args: ToolArguments, pathParameters: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([key]) => !pathParameters.includes(key)));
}

/** Ends every switch over a union so a new member fails compilation where it is not handled. */
export function assertNever(value: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(value)}`);
}

/**
 * The log refused an event for its size, storing nothing: retrying cannot
 * help, splitting the work into smaller events can. The file log refuses
 * over 16 MiB before writing; Kafka refuses above its brokers'
 * `message.max.bytes` (1 MiB unless raised), which only they know.
 */
export class EventTooLargeError extends Error {
  override readonly name = 'EventTooLargeError';

  constructor(
    readonly bytes: number,
    readonly limitBytes: number | undefined,
    options?: ErrorOptions,
  ) {
    super(`an event of ${bytes} bytes is larger than the event log takes${limitBytes === undefined ? '' : ` (${limitBytes} bytes)`}`, options);
  }
}

import { grownBuffer } from '@bpc/domain';

/** Below this many bytes a JavaScript loop copies faster than a native `set`. */
const NATIVE_COPY_MIN = 32;
const NULL = Buffer.from('null', 'latin1');
/** Largest time a `Date` holds, in ms either side of 1970. */
export const MAX_TIME_MS = 8.64e15;

/**
 * Writes JSON, byte for byte as `JSON.stringify` would, into one growing
 * buffer: a batch encoder's output, shared by the batch's events. Every
 * method appends at `offset`.
 */
export class JsonBatchWriter {
  out: Buffer;
  offset = 0;
  /** Per field: where the bytes of each value met were first written in `out` (the field's text, then the value's JSON). */
  private readonly seen: Map<unknown, Span>[];
  /** Per field: the value written last and its span (consecutive events mostly repeat it: no map lookup then). */
  private readonly lastValue: unknown[];
  private readonly lastSpan: (Span | undefined)[];
  private readonly fieldTextBytes: readonly Buffer[];
  /** The second `isoTimestamp` wrote last, and its text up to the milliseconds (`"2026-11-22T03:10:59.`). */
  private timestampSecond = Number.NaN;
  private timestampPrefix = Buffer.alloc(0);

  /**
   * `fieldTexts[f]` is what `field(f, value)` writes before the value
   * (`,"name":`). Writing starts in `scratch` when given (memory a caller
   * reuses batch after batch), and moves to memory of its own if it fills up.
   */
  constructor(
    initialBytes: number,
    fieldTexts: readonly string[] = [],
    scratch?: Buffer,
  ) {
    // Its own memory (as `grownBuffer`), not a slice of Node's shared pool that a kept batch would hold on to.
    this.out = scratch ?? Buffer.allocUnsafeSlow(initialBytes);
    this.seen = fieldTexts.map(() => new Map());
    this.lastValue = fieldTexts.map(() => undefined);
    this.lastSpan = fieldTexts.map(() => undefined);
    this.fieldTextBytes = fieldTexts.map((text) => Buffer.from(text, 'utf8'));
  }

  /**
   * Moves back to `offset`, dropping what was written after it (an event
   * refused half way). Every field's spans are forgotten: some may lie past
   * `offset`, and refusals are rare.
   */
  rewind(offset: number): void {
    this.offset = offset;
    for (const seen of this.seen) seen.clear();
    this.lastSpan.fill(undefined);
  }

  /** Bytes as they are. */
  bytes(bytes: Uint8Array): void {
    const n = bytes.length;
    this.ensure(n);
    const out = this.out;
    const o = this.offset;
    if (n >= NATIVE_COPY_MIN) out.set(bytes, o);
    else for (let i = 0; i < n; i++) out[o + i] = bytes[i];
    this.offset = o + n;
  }

  /** Makes room for `n` bytes at `offset` and moves past them; answers where they start (the caller writes them). */
  reserve(n: number): number {
    this.ensure(n);
    const at = this.offset;
    this.offset = at + n;
    return at;
  }

  /** The bytes already written from `start` to `end`, again (a run that repeats an earlier event's). */
  repeat(start: number, end: number): void {
    const n = end - start;
    this.ensure(n);
    const out = this.out;
    const o = this.offset;
    if (n >= NATIVE_COPY_MIN) out.copyWithin(o, start, end);
    else for (let i = 0; i < n; i++) out[o + i] = out[start + i];
    this.offset = o + n;
  }

  /**
   * A value that differs from event to event (ids, URLs): a string of
   * printable ASCII without `"` or `\` is copied between quotes in one
   * pass; anything else is written as `JSON.stringify` writes it.
   */
  string(value: unknown): void {
    if (typeof value !== 'string') return this.json(value);
    const n = value.length;
    this.ensure(n + 2);
    const out = this.out;
    let o = this.offset;
    out[o++] = 0x22;
    for (let i = 0; i < n; i++) {
      const c = value.charCodeAt(i);
      if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return this.json(value);
      out[o++] = c;
    }
    out[o++] = 0x22;
    this.offset = o;
  }

  /**
   * Field `f` with a value that repeats across the batch: its text and the
   * value's JSON are written the first time, then copied from there.
   */
  field(f: number, value: unknown): void {
    let span = this.lastSpan[f];
    if (span === undefined || value !== this.lastValue[f]) {
      span = this.seen[f].get(value);
      if (span === undefined) return this.firstField(f, value);
      this.lastValue[f] = value;
      this.lastSpan[f] = span;
    }
    this.repeat(span.start, span.end);
  }

  /** A number that varies from event to event (durations, sizes): non-negative safe integers digit by digit, anything else as `JSON.stringify` writes it. */
  number(value: number | null): void {
    if (value === null) return this.bytes(NULL);
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) return this.json(value);
    let digits = 1;
    for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits++;
    this.ensure(digits);
    const out = this.out;
    let rest = value;
    for (let o = this.offset + digits - 1; o >= this.offset; o--) {
      out[o] = 0x30 + (rest % 10);
      rest = Math.floor(rest / 10);
    }
    this.offset += digits;
  }

  /**
   * `JSON.stringify(new Date(ms).toISOString())` without building the string:
   * the text up to the second is kept from the previous call (consecutive
   * requests share it) and the milliseconds are written as digits. Throws a
   * RangeError for a time `Date` cannot hold, as `toISOString` does.
   */
  isoTimestamp(ms: number): void {
    const time = Math.trunc(ms);
    if (!(Math.abs(time) <= MAX_TIME_MS)) throw new RangeError('Invalid time value');
    const second = Math.floor(time / 1_000);
    if (second !== this.timestampSecond) {
      this.timestampPrefix = Buffer.from(`"${new Date(second * 1_000).toISOString().slice(0, -4)}`, 'latin1');
      this.timestampSecond = second;
    }
    this.bytes(this.timestampPrefix);
    const millis = time - second * 1_000;
    this.ensure(5);
    const out = this.out;
    const o = this.offset;
    out[o] = 0x30 + Math.floor(millis / 100);
    out[o + 1] = 0x30 + (Math.floor(millis / 10) % 10);
    out[o + 2] = 0x30 + (millis % 10);
    out[o + 3] = 0x5a; // Z
    out[o + 4] = 0x22;
    this.offset = o + 5;
  }

  private firstField(f: number, value: unknown): void {
    const start = this.offset;
    this.bytes(this.fieldTextBytes[f]);
    this.json(value);
    const span = { start, end: this.offset };
    this.seen[f].set(value, span);
    this.lastValue[f] = value;
    this.lastSpan[f] = span;
  }

  /** `JSON.stringify(value)` as UTF-8; throws for what has no JSON (undefined, functions), as an envelope field cannot be left out. */
  private json(value: unknown): void {
    const json = JSON.stringify(value) as string | undefined;
    if (json === undefined) throw new Error(`a field has no JSON value (${typeof value})`);
    // At most 3 UTF-8 bytes per UTF-16 unit (JSON.stringify escapes lone surrogates).
    this.ensure(json.length * 3);
    this.offset += this.out.write(json, this.offset, 'utf8');
  }

  private ensure(n: number): void {
    if (this.offset + n > this.out.length) this.out = grownBuffer(this.out, this.offset, this.offset + n);
  }
}

/** Where a field's bytes were written in the batch. */
interface Span {
  readonly start: number;
  readonly end: number;
}

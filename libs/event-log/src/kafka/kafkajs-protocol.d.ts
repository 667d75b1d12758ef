// The parts of kafkajs' protocol internals that the event log and the
// record-encoding spec use on the patched producer path
// (patches/kafkajs+2.2.4.patch); kafkajs ships no declarations for them.
declare module 'kafkajs/src/protocol/recordBatch/record/v0/encodeRecords' {
  /**
   * Many records in one message (`message.records`): each with its key, the
   * message's headers, then one header of its own; the values lie in one
   * buffer. The producer splits a run by its keys' partitions, keeping the
   * records' order in each.
   */
  export interface RecordRun {
    /** Bytes holding every record's value: record `j`'s is `values[starts[j], ends[j])`. */
    readonly values: Buffer;
    readonly starts: Uint32Array;
    readonly ends: Uint32Array;
    readonly keys: readonly Buffer[];
    /** Name of the header each record has a value of its own for, and record `j`'s value of it... */
    readonly recordHeader: string;
    readonly recordHeaderValues?: readonly string[];
    /** ...or where that value lies in every record's own value: `length` bytes from `offset` on (copied from there). */
    readonly recordHeaderInValue?: { readonly offset: number; readonly length: number };
    /** Memory the records may be encoded into when the run goes whole to one partition; left alone until the send settles. */
    readonly scratch?: Buffer;
  }
}

declare module 'kafkajs/src/protocol/requests/produce/v3/request' {
  import type { RecordRun } from 'kafkajs/src/protocol/recordBatch/record/v0/encodeRecords';
  export interface ProduceMessage {
    key?: string | Buffer | null;
    value: string | Buffer | null;
    headers?: Record<string, string | Buffer | (string | Buffer)[]>;
    timestamp?: string;
    records?: RecordRun;
  }
  interface ProduceRequest {
    apiKey: number;
    apiVersion: number;
    encode(): Promise<{ buffer: Buffer; buffers: Buffer[]; size(): number }>;
  }
  export default function produceV3(request: {
    acks: number;
    timeout: number;
    compression: number;
    topicData: { topic: string; partitions: { partition: number; messages: ProduceMessage[] }[] }[];
  }): ProduceRequest;
}

declare module 'kafkajs/src/protocol/requests/produce/v2/request' {
  import produceV3 from 'kafkajs/src/protocol/requests/produce/v3/request';
  /** Message sets (magic 1), for brokers before 0.11. */
  export default function produceV2(request: Parameters<typeof produceV3>[0]): ReturnType<typeof produceV3>;
}

declare module 'kafkajs/src/producer/groupMessagesPerPartition' {
  import type { ProduceMessage } from 'kafkajs/src/protocol/requests/produce/v3/request';
  /** The messages each partition gets (runs of records split by their keys' partitions, patched). */
  export default function groupMessagesPerPartition(args: {
    topic: string;
    partitionMetadata: { partitionId: number }[];
    messages: ProduceMessage[];
    partitioner(args: { topic: string; partitionMetadata: { partitionId: number }[]; message: ProduceMessage }): number;
  }): Record<number, ProduceMessage[]>;
}

declare module 'kafkajs/src/protocol/decoder' {
  export default class Decoder {
    constructor(buffer: Buffer);
    offset: number;
    readInt16(): number;
    readInt32(): number;
    readString(): string | null;
  }
}

declare module 'kafkajs/src/protocol/recordBatch/v0/decoder' {
  import Decoder from 'kafkajs/src/protocol/decoder';
  interface DecodedRecord {
    key: Buffer | null;
    value: Buffer | null;
    headers: Record<string, Buffer | Buffer[]>;
    timestamp: string;
    offset: string;
  }
  export default function decodeRecordBatch(decoder: Decoder): Promise<{ records: DecodedRecord[] }>;
}

declare module 'kafkajs/src/protocol/recordBatch/crc32C' {
  /** The producer's CRC-32C, unsigned. */
  export default function crc32C(buffer: Buffer): number;
}

declare module 'kafkajs/src/protocol/recordBatch/crc32C/crc32C' {
  export default function crc32C(buffer: Buffer): number;
}

declare module 'kafkajs/src/network/requestQueue' {
  interface RequestEntry {
    correlationId: number;
    apiKey: number;
    apiName: string;
    apiVersion: number;
    resolve(response: unknown): void;
    reject(error: Error): void;
  }
  /** One connection's queue of requests: in flight, and pending behind the in-flight limit or a broker's throttle. */
  export default class RequestQueue {
    constructor(options: { maxInFlightRequests: number | null; requestTimeout: number; enforceRequestTimeout: boolean; clientId: string; broker: string; logger: unknown });
    readonly pending: unknown[];
    push(request: { entry: RequestEntry; expectResponse: boolean; sendRequest(): void }): void;
    fulfillRequest(response: { correlationId: number; payload: Buffer | null; size: number }): void;
    maybeThrottle(clientSideThrottleTimeMs: number | null): void;
    destroy(): void;
  }
}

declare module 'kafkajs/src/protocol/request' {
  /** A request as the connection sends it: size, header, body; `buffers` are its pieces in order (patched). */
  export default function createRequest(args: {
    correlationId: number;
    clientId: string;
    request: { apiKey: number; apiVersion: number; encode(): Promise<{ buffer: Buffer; buffers: Buffer[]; size(): number }> };
  }): Promise<{ buffer: Buffer; buffers: Buffer[]; size(): number }>;
}

import type { JsonSchema } from './json-schema';
import type { TopicName } from './topics';

/** What a downstream consumer can rely on for one event type. */
export interface EventDefinition {
  readonly type: string;
  readonly version: number;
  readonly topic: TopicName;
  /** What the partition key holds. */
  readonly key: string;
  readonly description: string;
  readonly payload: JsonSchema;
}

/**
 * Topic names follow Kafka's rule in both modes, so a name that works in
 * standalone mode works in cluster mode too, and is safe as a directory name.
 */
const LEGAL = /^[a-zA-Z0-9._-]{1,249}$/;

export function assertTopicName(topic: string): void {
  if (!LEGAL.test(topic) || topic === '.' || topic === '..') {
    throw new Error(`invalid topic name ${JSON.stringify(topic)}: use 1-249 characters among a-z A-Z 0-9 . _ -`);
  }
}

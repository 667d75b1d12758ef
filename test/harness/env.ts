/** Addresses of the engines the jest global setup started for this run. */
export function testEngines(): { redisUrl: string; kafkaBrokers: string[] } {
  const redisUrl = process.env.TEST_REDIS_URL;
  const kafka = process.env.TEST_KAFKA_BROKERS;
  if (!redisUrl || !kafka) {
    throw new Error('test engines are not running: run the suites through jest (global setup starts them)');
  }
  return { redisUrl, kafkaBrokers: kafka.split(',') };
}

/** A real ClickHouse server to run the explorer-store contract against as well, when one is given. */
export function clickhouseServerUrl(): string | undefined {
  return process.env.CLICKHOUSE_URL || undefined;
}

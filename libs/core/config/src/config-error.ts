/** One refused configuration value: the dotted key and why. */
export interface ConfigIssue {
  readonly key: string;
  readonly reason: string;
}

/** Stops startup: names every offending key and the reason. */
export class ConfigError extends Error {
  constructor(
    readonly source: string,
    readonly issues: readonly ConfigIssue[],
  ) {
    super(`invalid configuration (${source}):\n${issues.map((i) => `  ${i.key}: ${i.reason}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

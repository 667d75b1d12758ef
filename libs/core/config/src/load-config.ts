import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import { parse as parseYaml } from 'yaml';
import { AppConfigSchema } from './config.schema';
import { ConfigError, ConfigIssue } from './config-error';
import { crossCheck } from './cross-checks';
import { applyEnvOverrides } from './env-overrides';

/** The validated configuration. The internal auth key is kept only as its SHA-256. */
export type AppConfig = Readonly<Omit<AppConfigSchema, 'internal_auth_key' | 'internal_auth_key_sha256'>> & {
  readonly internal_auth_key_sha256: string;
};

export const DEFAULT_CONFIG_FILE = 'deploy/config/demo.yaml';

export interface LoadConfigOptions {
  /** Configuration file (YAML or JSON); default `BPC_CONFIG`, then the demo config. */
  readonly file?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Extra values applied after the file and before the environment (tests). */
  readonly overrides?: Record<string, unknown>;
}

/** Reads, overrides and validates the configuration; throws ConfigError naming each bad key. */
export function loadConfig(options: LoadConfigOptions = {}): AppConfig {
  const env = options.env ?? process.env;
  const file = path.resolve(options.file ?? env.BPC_CONFIG ?? DEFAULT_CONFIG_FILE);
  const raw = readConfigFile(file);
  const merged = applyEnvOverrides(deepMerge(raw, options.overrides ?? {}), env);
  return validateConfig(merged, `${file} + environment`);
}

export function validateConfig(raw: Record<string, unknown>, source: string): AppConfig {
  const schema = plainToInstance(AppConfigSchema, raw, { exposeDefaultValues: true });
  const errors = validateSync(schema, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true });
  const issues = errors.length > 0 ? errors.flatMap((e) => flatten(e, '')) : crossCheck(schema);
  if (issues.length > 0) throw new ConfigError(source, issues);
  const { internal_auth_key, internal_auth_key_sha256, ...rest } = schema;
  const hash = internal_auth_key_sha256 ?? createHash('sha256').update(internal_auth_key ?? '').digest('hex');
  return deepFreeze({ ...rest, internal_auth_key_sha256: hash });
}

function readConfigFile(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(file, [{ key: '(file)', reason: `cannot read: ${(error as Error).message}` }]);
  }
  let parsed: unknown;
  try {
    parsed = parseYaml(text);
  } catch (error) {
    throw new ConfigError(file, [{ key: '(file)', reason: `not valid YAML or JSON: ${(error as Error).message}` }]);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError(file, [{ key: '(file)', reason: 'must hold a mapping of keys' }]);
  }
  return parsed as Record<string, unknown>;
}

function flatten(error: ValidationError, parent: string): ConfigIssue[] {
  const key = /^\d+$/.test(error.property) ? `${parent}[${error.property}]` : parent ? `${parent}.${error.property}` : error.property;
  const reasons = Object.entries(error.constraints ?? {}).map(([name, message]) =>
    name === 'whitelistValidation' ? 'unknown key' : message.replace(`${error.property} `, ''),
  );
  const own = reasons.length > 0 ? [{ key, reason: reasons.join('; ') }] : [];
  return [...own, ...(error.children ?? []).flatMap((child) => flatten(child, key))];
}

function deepMerge(base: Record<string, unknown>, extra: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(extra)) {
    const current = result[k];
    result[k] =
      isPlainObject(current) && isPlainObject(v) ? deepMerge(current, v) : v;
  }
  return result;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
}

/** The process environment, for entry points that pass it on (the config module is the one place that reads it). */
export function processEnvironment(): Readonly<Record<string, string | undefined>> {
  return process.env;
}

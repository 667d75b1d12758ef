import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import draft07 from 'ajv/dist/refs/json-schema-draft-07.json';
import { parse as parseYaml } from 'yaml';
import { loadConfig } from './load-config';

const root = path.resolve(__dirname, '../../../..');

interface ComposeService {
  image?: string;
  restart?: string;
  command?: string[];
  environment?: Record<string, string | number>;
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
}
interface ComposeFile {
  services: Record<string, ComposeService>;
}

/**
 * The Compose Specification's JSON Schema as the dclint package ships it
 * (kept in step with compose-spec by its maintainers; no package publishes
 * the schema alone). Its `$schema` names draft-07 by its https address,
 * which Ajv knows under the http one. Not strict: strict mode judges how a
 * schema is written, and this one is not ours to rewrite.
 */
function composeSchemaValidator(): ValidateFunction {
  const schemaFile = path.join(path.dirname(require.resolve('dclint/package.json')), 'schemas', 'compose.schema.json');
  const schema = JSON.parse(readFileSync(schemaFile, 'utf8')) as { $schema: string };
  const ajv = new Ajv({ allErrors: true, strict: false });
  ajv.addMetaSchema(draft07, schema.$schema);
  return ajv.compile(schema);
}

/** As compose reads the file: YAML merge keys (`<<: *app`) applied. */
function readCompose(): ComposeFile {
  return parseYaml(readFileSync(path.join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as ComposeFile;
}

/** Compose's interpolation of one value: `${VAR}`, `${VAR:-default}`, `${VAR:?error}`, `$$`. */
function interpolate(value: string, env: Readonly<Record<string, string>>): string {
  return value.replace(/\$\$|\$\{([A-Z0-9_]+)(?::([-?])([^}]*))?\}/g, (whole, name: string | undefined, kind: string | undefined, word: string | undefined) => {
    if (whole === '$$') return '$';
    const set = env[name!];
    if (set !== undefined && set !== '') return set;
    if (kind === '?') throw new Error(`${name}: ${word}`);
    return kind === '-' ? word! : '';
  });
}

const APPS = ['projector', 'daemon', 'public-api', 'edge'];
const ENGINES = ['kafka', 'redis', 'clickhouse', 'minio'];
/** Jobs that run once before the apps start (the bucket and the apps' user in MinIO). */
const ONE_SHOTS = ['minio-bucket'];

describe('docker-compose.yml', () => {
  const compose = readCompose();
  const validate = composeSchemaValidator();

  it('is valid against the Compose Specification schema', () => {
    expect(validate(compose) ? [] : validate.errors).toEqual([]);
  });

  it('the schema check has teeth: an unknown depends_on condition is refused', () => {
    const broken = structuredClone(compose);
    broken.services.edge.depends_on = { kafka: { condition: 'service_up' } };
    expect(validate(broken)).toBe(false);
  });

  it('gives every long-running service a healthcheck, and starts the apps once every engine is healthy and every one-shot job has succeeded', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      if (ONE_SHOTS.includes(name)) continue;
      expect({ name, test: service.healthcheck?.test?.[0] }).toEqual({ name, test: expect.stringMatching(/^CMD(-SHELL)?$/) });
    }
    const expected = { ...Object.fromEntries(ENGINES.map((e) => [e, { condition: 'service_healthy' }])), ...Object.fromEntries(ONE_SHOTS.map((j) => [j, { condition: 'service_completed_successfully' }])) };
    for (const app of APPS) expect({ app, dependsOn: compose.services[app].depends_on }).toEqual({ app, dependsOn: expected });
    // A job is run once (never restarted into a loop) after the engine it configures is healthy.
    for (const job of ONE_SHOTS) expect({ job, restart: compose.services[job].restart, dependsOn: compose.services[job].depends_on }).toEqual({ job, restart: 'no', dependsOn: { minio: { condition: 'service_healthy' } } });
  });

  it('pins MinIO and mc to release tags, and checks MinIO with the mc its image ships', () => {
    expect(compose.services.minio.image).toMatch(/^minio\/minio:RELEASE\.\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ$/);
    expect(compose.services['minio-bucket'].image).toMatch(/^minio\/mc:RELEASE\.\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ$/);
    expect(compose.services.minio.healthcheck?.test).toEqual(['CMD', 'mc', 'ready', 'local']);
    expect((compose.services.minio.volumes ?? []).map((v) => v.split(':')[1])).toContain('/data');
  });

  it("keeps Kafka's topics (the system of record) on its volume", () => {
    const kafka = compose.services.kafka;
    const logDirs = String(kafka.environment?.KAFKA_LOG_DIRS ?? '/tmp/kraft-combined-logs').split(',');
    const mounted = (kafka.volumes ?? []).map((v) => v.split(':')[1]);
    for (const dir of logDirs) expect({ dir, onVolume: mounted.some((m) => dir === m || dir.startsWith(`${m}/`)) }).toEqual({ dir, onVolume: true });
  });

  it('mounts the analyst user config it names, from the repository', () => {
    const mounts = (compose.services.clickhouse.volumes ?? []).filter((v) => v.startsWith('./'));
    expect(mounts).toEqual([expect.stringMatching(/^\.\/deploy\/clickhouse-server\/users\.d\/analyst\.xml:\/etc\/clickhouse-server\/users\.d\/analyst\.xml:ro$/)]);
    for (const mount of mounts) expect(existsSync(path.join(root, mount.split(':')[0]))).toBe(true);
  });

  it('the analyst user it mounts is read-only, its password from a variable the server container gets', () => {
    const xml = readFileSync(path.join(root, 'deploy/clickhouse-server/users.d/analyst.xml'), 'utf8');
    const variable = /<password from_env="([A-Z_]+)"\s*\/>/.exec(xml)?.[1];
    expect(variable).toBe('CLICKHOUSE_ANALYST_PASSWORD');
    expect(Object.keys(compose.services.clickhouse.environment ?? {})).toContain(variable);
    expect(/<profiles>[\s\S]*<analyst>[\s\S]*<readonly>([12])<\/readonly>/.exec(xml)?.[1]).toMatch(/^[12]$/);
    expect(xml).toMatch(/<users>\s*<analyst>[\s\S]*<profile>analyst<\/profile>/);
  });

  describe('with the variables docs/cluster-compose.md tells a reader to set', () => {
    const env = {
      BPC_INTERNAL_AUTH_KEY_SHA256: 'a'.repeat(64),
      BPC_EXPORTS_SIGNING_KEY: 'a-signing-key-of-more-than-32-characters',
      CLICKHOUSE_PASSWORD: 'app-secret',
      CLICKHOUSE_ANALYST_PASSWORD: 'analyst-secret',
      BPC_DEMO_PRERENDER_TOKEN_SHA256: 'b'.repeat(64),
      MINIO_ROOT_PASSWORD: 'minio-root-secret',
      BPC_S3_SECRET_KEY: 'app-s3-secret',
    };
    const environmentOf = (service: string, vars: Record<string, string>) =>
      Object.fromEntries(Object.entries(compose.services[service].environment ?? {}).map(([k, v]) => [k, interpolate(String(v), vars)]));

    it('the apps load deploy/config/cluster.yaml with the ClickHouse user the server image creates, and the demo website has its token', () => {
      const apps = environmentOf('edge', env);
      const server = environmentOf('clickhouse', env);
      const config = loadConfig({ file: path.join(root, apps.BPC_CONFIG), env: apps });
      expect(config.clickhouse).toMatchObject({ username: server.CLICKHOUSE_USER, password: server.CLICKHOUSE_PASSWORD });
      expect(server.CLICKHOUSE_USER).not.toBe('default');
      expect(config.websites.map((w) => [w.id, w.prerender_token_sha256])).toEqual([['demo', env.BPC_DEMO_PRERENDER_TOKEN_SHA256]]);
    });

    it('the apps keep bodies and exports in the bucket minio-bucket creates, as the user it creates, credentials only in the environment', () => {
      const apps = environmentOf('edge', env);
      const job = environmentOf('minio-bucket', env);
      const config = loadConfig({ file: path.join(root, apps.BPC_CONFIG), env: apps });
      expect(config.adapters.object_store).toBe('s3');
      expect(config.s3).toMatchObject({ bucket: job.BUCKET, endpoint: 'http://minio:9000', force_path_style: true });
      expect({ id: apps.AWS_ACCESS_KEY_ID, secret: apps.AWS_SECRET_ACCESS_KEY }).toEqual({ id: job.APP_ACCESS_KEY, secret: job.APP_SECRET_KEY });
      expect(apps.AWS_ACCESS_KEY_ID).not.toBe(environmentOf('minio', env).MINIO_ROOT_USER);
      expect(environmentOf('minio', env).MINIO_ROOT_PASSWORD).toBe(job.MINIO_ROOT_PASSWORD);
    });

    it('refuses to start without each of them, naming it', () => {
      for (const name of Object.keys(env)) {
        const missing: Record<string, string> = { ...env, [name]: '' };
        expect(() => [...APPS, ...ENGINES, ...ONE_SHOTS].forEach((service) => environmentOf(service, missing))).toThrow(new RegExp(`^${name}: set `));
      }
    });
  });
});

describe('deploy/Dockerfile', () => {
  const dockerfile = readFileSync(path.join(root, 'deploy/Dockerfile'), 'utf8');
  const instructions = dockerfile.split('\n').filter((line) => /^[A-Z]+\s/.test(line));
  const stages = instructions.filter((line) => line.startsWith('FROM '));
  const finalStage = instructions.slice(instructions.lastIndexOf(stages.at(-1)!));
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string }; devDependencies: { node: string } };
  const enginesNode = pkg.engines.node;

  it('package.json pins (devDependencies.node, what npm scripts run) a Node.js of the major its engines name', () => {
    expect(enginesNode).toMatch(/^\d+\.x$/);
    expect(pkg.devDependencies.node.split('.')[0]).toBe(enginesNode.split('.')[0]);
  });

  it('builds every stage from the slim image of the Node.js major that package.json says we test', () => {
    const major = /^(\d+)\./.exec(enginesNode)?.[1];
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of stages) expect(stage).toMatch(new RegExp(`^FROM node:${major}-[a-z]+-slim( AS \\w+)?$`));
  });

  it('runs as an unprivileged user, with a healthcheck that the image can run', () => {
    expect(finalStage.filter((line) => line.startsWith('USER '))).toEqual(['USER node']);
    const healthcheck = finalStage.find((line) => line.startsWith('HEALTHCHECK '));
    expect(healthcheck).toContain('"node", "deploy/healthcheck.mjs"');
  });

  it('the compose apps check readiness with the same script, each on its own port', () => {
    const compose = readCompose();
    const ports = APPS.map((app) => compose.services[app].healthcheck?.test);
    expect(ports).toEqual([3003, 3001, 3000, 3002].map((port) => ['CMD', 'node', 'deploy/healthcheck.mjs', String(port)]));
  });
});

describe('deploy/healthcheck.mjs', () => {
  const healthcheck = (port: number) =>
    new Promise<number | null>((resolve) => execFile(process.execPath, [path.join(root, 'deploy/healthcheck.mjs'), String(port)], (error) => resolve(error ? (error.code as number) : 0)));

  async function withServer(status: number, check: (port: number) => Promise<void>): Promise<void> {
    const server = createServer((req, res) => res.writeHead(req.url === '/health/ready' ? status : 404).end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      await check((server.address() as AddressInfo).port);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }

  it('exits 0 when the app is ready, 1 when it answers 503 or does not answer', async () => {
    await withServer(200, async (port) => expect(await healthcheck(port)).toBe(0));
    await withServer(503, async (port) => expect(await healthcheck(port)).toBe(1));
    let closedPort = 0;
    await withServer(200, async (port) => void (closedPort = port));
    expect(await healthcheck(closedPort)).toBe(1);
  });
});

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { freePort } from './engines';
import { spawnNode, spawnService, waitUntilAnswers, type SpawnedService } from './spawned-service';
import { TEST_INTERNAL_KEY, TEST_KAFKA_SESSION_TIMEOUT_MS } from './test-config';

/** The four deployable apps a cluster runs, each as processes of its own. */
export const CLUSTER_APPS = ['projector', 'public-api', 'daemon', 'edge'] as const;
export type ClusterApp = (typeof CLUSTER_APPS)[number];

const LISTEN_KEY: Record<ClusterApp, string> = { 'public-api': 'public_api', daemon: 'daemon', edge: 'edge', projector: 'projector' };

/** The engines every replica shares: what an operator runs beside the apps. */
export interface SharedClusterEngines {
  readonly kafkaBrokers: readonly string[];
  readonly redisUrl: string;
  /** ClickHouse's HTTP interface (the harness's stand-in) and a database of this cluster's own. */
  readonly clickhouse: { readonly url: string; readonly database: string };
  /** An S3-protocol server and a bucket that exists. */
  readonly s3: { readonly endpoint: string; readonly bucket: string; readonly accessKeyId: string; readonly secretAccessKey: string };
}

/** One process of one app. */
export interface Replica {
  readonly app: ClusterApp;
  readonly index: number;
  readonly port: number;
  readonly url: string;
  readonly dataDir: string;
  service: SpawnedService;
}

/**
 * N replicas of every app as separate processes on shared engines: one
 * configuration file, each process its own port (`BPC__LISTEN__…`) and data
 * directory (the spill, the renderer's profile; bodies and exports live in
 * the object store). Names under a unique namespace, key prefix, database
 * and object prefix, so clusters of parallel suites never meet.
 */
export class ReplicatedCluster {
  private constructor(
    readonly dir: string,
    readonly configFile: string,
    private readonly engines: SharedClusterEngines,
    private readonly all: Replica[],
    private readonly built: boolean,
  ) {}

  /**
   * Writes the configuration and starts `replicas` processes of each app (in `apps` order, all at once), ready when each one's readiness answers 200.
   * `built`: run the built `dist/apps/<app>/src/main.js` (with `npm start`'s V8 flags; `npm run build` first), as a bench measures them, instead of the sources through the swc hook.
   */
  static async start(options: { engines: SharedClusterEngines; config?: Record<string, unknown>; replicas?: number; apps?: readonly ClusterApp[]; readyTimeoutMs?: number; built?: boolean }): Promise<ReplicatedCluster> {
    const { engines, replicas = 2, apps = CLUSTER_APPS } = options;
    const dir = mkdtempSync(path.join(tmpdir(), 'bpc-replicas-'));
    const unique = randomUUID().slice(0, 8);
    const configFile = path.join(dir, 'config.json');
    writeFileSync(configFile, JSON.stringify(clusterConfig(engines, unique, dir, options.config ?? {})));
    const all: Replica[] = [];
    for (const app of apps) {
      for (let index = 0; index < replicas; index += 1) {
        const port = await freePort();
        const dataDir = path.join(dir, `${app}-${index}`);
        mkdirSync(dataDir, { recursive: true });
        all.push({ app, index, port, url: `http://127.0.0.1:${port}`, dataDir, service: undefined as unknown as SpawnedService });
      }
    }
    const cluster = new ReplicatedCluster(dir, configFile, engines, all, options.built ?? false);
    await Promise.all(all.map((replica) => cluster.launch(replica, options.readyTimeoutMs)));
    return cluster;
  }

  replicas(app: ClusterApp): readonly Replica[] {
    return this.all.filter((replica) => replica.app === app);
  }

  replica(app: ClusterApp, index: number): Replica {
    const found = this.all.find((replica) => replica.app === app && replica.index === index);
    if (!found) throw new Error(`no replica ${index} of ${app}`);
    return found;
  }

  /** Kills one replica (SIGKILL by default: a crash) and waits for it to exit. */
  async kill(app: ClusterApp, index: number, signal: NodeJS.Signals = 'SIGKILL'): Promise<number | string> {
    const { service } = this.replica(app, index);
    service.child.kill(signal);
    return service.exited;
  }

  /** Starts a stopped replica again on its port and data directory; resolves once it is ready. */
  async restart(app: ClusterApp, index: number, readyTimeoutMs?: number): Promise<void> {
    await this.launch(this.replica(app, index), readyTimeoutMs);
  }

  /** Stops every replica gracefully (SIGTERM), in reverse start order: edges first, projectors last. */
  async stop(): Promise<void> {
    for (const app of [...CLUSTER_APPS].reverse()) {
      await Promise.all(
        this.replicas(app).map(async (replica) => {
          if (replica.service.child.exitCode !== null || replica.service.child.signalCode !== null) return;
          replica.service.child.kill('SIGTERM');
          await replica.service.exited;
        }),
      );
    }
  }

  /** Writes what every replica printed (its last 200 KB) to `<dir>/<app>-<index>.log`, for a failing test's message: answers where. */
  saveOutput(): string {
    for (const r of this.all) writeFileSync(path.join(this.dir, `${r.app}-${r.index}.log`), r.service?.output() ?? '');
    return `replica logs in ${this.dir}`;
  }

  private async launch(replica: Replica, readyTimeoutMs = 120_000): Promise<void> {
    const env = {
      BPC_CONFIG: this.configFile,
      [`BPC__LISTEN__${LISTEN_KEY[replica.app].toUpperCase()}`]: String(replica.port),
      BPC__DATA_DIR: replica.dataDir,
      AWS_ACCESS_KEY_ID: this.engines.s3.accessKeyId,
      AWS_SECRET_ACCESS_KEY: this.engines.s3.secretAccessKey,
    };
    replica.service = this.built ? spawnNode(['--max-semi-space-size=32', '--initial-old-space-size=256', builtMain(replica.app)], env) : spawnService(`apps/${replica.app}/src/main.ts`, env);
    await waitUntilAnswers(`${replica.url}/health/ready`, {}, readyTimeoutMs, replica.service);
  }
}

/** The app's built entry point, whether this file runs from the sources (jest) or from `dist/` (a bench). */
function builtMain(app: ClusterApp): string {
  return path.resolve(__dirname, '..', '..', ...(__filename.endsWith('.ts') ? ['dist'] : []), 'apps', app, 'src', 'main.js');
}

/** The cluster's configuration: shared engines under names of its own; `extra`'s top-level keys replace these. */
function clusterConfig(engines: SharedClusterEngines, unique: string, dir: string, extra: Record<string, unknown>): Record<string, unknown> {
  return {
    data_dir: path.join(dir, 'data'),
    internal_auth_key: TEST_INTERNAL_KEY,
    logging: { level: 'warn' },
    listen: { host: '127.0.0.1', public_api: 0, daemon: 0, edge: 0, projector: 0 },
    adapters: { event_log: 'kafka', queue_store: 'redis', explorer_store: 'clickhouse', object_store: 's3' },
    kafka: { brokers: engines.kafkaBrokers, client_id: `replicas-${unique}`, namespace: `r${unique}`, session_timeout_ms: TEST_KAFKA_SESSION_TIMEOUT_MS },
    redis: { url: engines.redisUrl, key_prefix: `r${unique}` },
    clickhouse: { url: engines.clickhouse.url, database: engines.clickhouse.database },
    s3: { endpoint: engines.s3.endpoint, bucket: engines.s3.bucket, prefix: `r${unique}`, force_path_style: true },
    exports: { signing_key: `replicas-link-signing-key-${unique}-0123456789` },
    hosts: [{ host_id: 1, hostnames: ['www.example.com'], dimensions: [{ id: 1, name: 'desktop' }] }],
    websites: [{ id: 'demo', host_id: 1, account_id: 'acme' }],
    ...extra,
  };
}

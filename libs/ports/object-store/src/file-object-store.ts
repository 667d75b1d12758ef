import { createReadStream, createWriteStream, constants as fsConstants } from 'node:fs';
import { access, mkdir, open, readdir, readFile, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomBytes } from 'node:crypto';
import { mkdirDurably, publishFile, writeFileAtomic } from '@bpc/durable-fs';
import { assertObjectKey, assertObjectPrefix } from './object-key';
import { ObjectGoneError, type ObjectKey, type ObjectStore, type StoredObject } from './object-store.port';

/** Temporary files of writes in progress (`writeFileAtomic`'s and `upload`'s): never listed as objects. */
const TEMP = /\.(tmp|part)-[0-9a-f]{8}$/;

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException)?.code === 'ENOENT';
}

/**
 * Objects as files under one directory (standalone, or a volume every
 * replica mounts). A key is the file's path relative to the directory.
 */
export class FileObjectStore implements ObjectStore {
  readonly location: string;
  /** The directory's absolute path with a trailing separator: every key resolves below it. */
  private readonly root: string;

  constructor(readonly directory: string) {
    this.root = path.resolve(directory) + path.sep;
    this.location = `file://${path.resolve(directory)}`;
  }

  async put(key: ObjectKey, body: Buffer): Promise<void> {
    await writeFileAtomic(this.fileOf(key), body);
  }

  async upload(key: ObjectKey, source: Readable, options: { readonly beforeCommit?: () => void } = {}): Promise<{ bytes: number }> {
    const file = this.fileOf(key);
    await mkdirDurably(path.dirname(file));
    const part = `${file}.part-${randomBytes(4).toString('hex')}`;
    try {
      await pipeline(source, createWriteStream(part));
      options.beforeCommit?.();
      const { size } = await stat(part);
      await publishFile(part, file);
      return { bytes: size };
    } catch (error) {
      await unlink(part).catch(() => undefined);
      throw error;
    }
  }

  async uploadFile(key: ObjectKey, file: string, options: { readonly beforeCommit?: () => void } = {}): Promise<{ bytes: number }> {
    const target = this.fileOf(key);
    try {
      options.beforeCommit?.();
      await mkdirDurably(path.dirname(target));
      const { size } = await stat(file);
      await publishFile(file, target);
      return { bytes: size };
    } catch (error) {
      // Another filesystem (the staging directory on a different volume): copied instead of moved.
      if ((error as NodeJS.ErrnoException).code === 'EXDEV') return this.upload(key, createReadStream(file), options).finally(() => unlink(file).catch(() => undefined));
      await unlink(file).catch(() => undefined);
      throw error;
    }
  }

  async read(key: ObjectKey): Promise<Buffer> {
    const file = this.fileOf(key);
    try {
      return await readFile(file);
    } catch (error) {
      throw gone(key, error);
    }
  }

  open(key: ObjectKey): Readable {
    const file = this.fileOf(key);
    const out = new PassThrough();
    const source = createReadStream(file);
    source.on('error', (error) => out.destroy(gone(key, error)));
    return source.pipe(out);
  }

  async stat(key: ObjectKey): Promise<{ bytes: number } | undefined> {
    try {
      const found = await stat(this.fileOf(key));
      return found.isFile() ? { bytes: found.size } : undefined;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async remove(keys: readonly ObjectKey[]): Promise<void> {
    // Every key is checked before the first unlink: a hostile key refuses the whole batch, never half of it.
    const files = keys.map((key) => this.fileOf(key));
    for (const file of files) {
      try {
        await unlink(file);
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
    }
  }

  async *list(prefix: ObjectKey): AsyncIterable<StoredObject> {
    assertObjectPrefix(prefix);
    const slash = prefix.lastIndexOf('/');
    yield* this.walk(slash < 0 ? '' : prefix.slice(0, slash), prefix);
  }

  async check(): Promise<void> {
    await mkdir(this.directory, { recursive: true });
    await access(this.directory, fsConstants.W_OK);
    // A probe write: a read-only or full volume fails here, not on the first render.
    const probe = path.join(this.directory, `.probe-${randomBytes(4).toString('hex')}`);
    const handle = await open(probe, 'w');
    await handle.close();
    await unlink(probe);
  }

  async close(): Promise<void> {}

  private fileOf(key: ObjectKey): string {
    assertObjectKey(key);
    const file = path.resolve(this.directory, key);
    if (!file.startsWith(this.root)) throw new RangeError(`object key ${JSON.stringify(key)} leaves the store's directory`);
    return file;
  }

  private async *walk(relativeDir: string, prefix: string): AsyncIterable<StoredObject> {
    let entries;
    try {
      entries = await readdir(path.join(this.directory, relativeDir), { withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    for (const entry of entries) {
      const key = relativeDir ? `${relativeDir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (key.startsWith(prefix) || prefix.startsWith(`${key}/`)) yield* this.walk(key, prefix);
      } else if (entry.isFile() && key.startsWith(prefix) && !TEMP.test(entry.name) && !entry.name.startsWith('.')) {
        const found = await stat(path.join(this.directory, key)).catch(() => undefined);
        if (found) yield { key, bytes: found.size, modifiedAt: found.mtimeMs };
      }
    }
  }
}

function gone(key: ObjectKey, error: unknown): Error {
  return isMissing(error) ? new ObjectGoneError(`object ${key} is gone`, { cause: error }) : (error as Error);
}

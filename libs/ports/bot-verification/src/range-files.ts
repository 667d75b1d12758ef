import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { OperatorRangeFile, PublishedRangeFile } from './published-ranges';
import { rangeSetProblems, type RangeFileSource, type RangeSet } from './range-set';

/** The range set that ships with the code (copied from public mirrors of the official files: its sources.json says which); the edge's default. */
export const SHIPPED_RANGES_DIR = path.join(__dirname, 'ranges');

interface SourcesFile {
  readonly sample?: unknown;
  readonly files: readonly (Omit<RangeFileSource, 'urls'> & { readonly urls?: readonly string[]; readonly url?: string })[];
}

/**
 * Reads the range files a directory's sources.json lists, each with its
 * operator. A missing or malformed file throws, and so does a set that
 * `rangeSetProblems` refuses (naming why).
 */
export async function readRangeSet(dir: string): Promise<RangeSet> {
  const manifest = JSON.parse(await readFile(path.join(dir, 'sources.json'), 'utf8')) as SourcesFile;
  // `url`: the one official URL, as sets written before unions were accepted name it.
  const sources = manifest.files.map(({ url, ...source }): RangeFileSource => ({ ...source, urls: source.urls ?? (url === undefined ? [] : [url]) }));
  const sample = manifest.sample !== undefined;
  const problems = rangeSetProblems(sources, { sample });
  if (problems.length > 0) throw new Error(`${dir}: ${problems.join('; ')}`);
  const files = await Promise.all(
    sources.map(async (source) => ({ operator: source.operator, file: JSON.parse(await readFile(path.join(dir, source.file), 'utf8')) as PublishedRangeFile })),
  );
  return { sample, sources, files };
}

/** The range files of a directory (`readRangeSet`), each with its operator. */
export async function readRangeFiles(dir: string): Promise<readonly OperatorRangeFile[]> {
  return (await readRangeSet(dir)).files;
}

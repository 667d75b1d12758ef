import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { OperatorRangeFile, PublishedRangeFile } from './published-ranges';

/** Where an operator publishes a range file, and which of its crawlers the file covers. */
export interface RangeSource {
  readonly file: string;
  readonly operator: string;
  readonly crawlers: string;
  readonly url: string;
}

/** The official range files (`npm run bots:update-ranges` downloads them; docs/bots.md). */
export const RANGE_SOURCES: readonly RangeSource[] = [
  { file: 'googlebot.json', operator: 'Google', crawlers: 'Googlebot (search)', url: 'https://developers.google.com/static/search/apis/ipranges/googlebot.json' },
  { file: 'google-special-crawlers.json', operator: 'Google', crawlers: 'AdsBot, Mediapartners and other special-case crawlers', url: 'https://developers.google.com/static/search/apis/ipranges/special-crawlers.json' },
  { file: 'google-user-triggered-fetchers.json', operator: 'Google', crawlers: 'user-triggered fetchers (Google Site Verifier, feeds, …)', url: 'https://developers.google.com/static/search/apis/ipranges/user-triggered-fetchers.json' },
  { file: 'google-user-triggered-fetchers-google.json', operator: 'Google', crawlers: 'user-triggered fetchers on Google-owned addresses', url: 'https://developers.google.com/static/search/apis/ipranges/user-triggered-fetchers-google.json' },
  { file: 'bingbot.json', operator: 'Microsoft', crawlers: 'Bingbot', url: 'https://www.bing.com/toolbox/bingbot.json' },
  { file: 'openai-gptbot.json', operator: 'OpenAI', crawlers: 'GPTBot', url: 'https://openai.com/gptbot.json' },
  { file: 'openai-searchbot.json', operator: 'OpenAI', crawlers: 'OAI-SearchBot', url: 'https://openai.com/searchbot.json' },
  { file: 'openai-chatgpt-user.json', operator: 'OpenAI', crawlers: 'ChatGPT-User', url: 'https://openai.com/chatgpt-user.json' },
  { file: 'perplexitybot.json', operator: 'Perplexity', crawlers: 'PerplexityBot', url: 'https://www.perplexity.com/perplexitybot.json' },
  { file: 'perplexity-user.json', operator: 'Perplexity', crawlers: 'Perplexity-User', url: 'https://www.perplexity.com/perplexity-user.json' },
  { file: 'applebot.json', operator: 'Apple', crawlers: 'Applebot', url: 'https://search.developer.apple.com/applebot.json' },
];

/** What a range directory's sources.json says of each file in it. */
export interface RangeFileSource {
  readonly file: string;
  readonly operator: string;
  readonly url: string;
  readonly downloaded: string;
  readonly creationTime?: string;
}

/** Whether a range directory is a SAMPLE set (its sources.json says so): documentation addresses, for tests only. */
export async function isSampleRangeDir(dir: string): Promise<boolean> {
  const sources = JSON.parse(await readFile(path.join(dir, 'sources.json'), 'utf8')) as { sample?: unknown };
  return sources.sample !== undefined;
}

/** Reads the range files a directory's sources.json lists, each with its operator; a missing or malformed file throws. */
export async function readRangeFiles(dir: string): Promise<OperatorRangeFile[]> {
  const { files } = JSON.parse(await readFile(path.join(dir, 'sources.json'), 'utf8')) as { files: readonly RangeFileSource[] };
  return Promise.all(
    files.map(async (source) => ({ operator: source.operator, file: JSON.parse(await readFile(path.join(dir, source.file), 'utf8')) as PublishedRangeFile })),
  );
}

import { LRUCache } from 'lru-cache';
import aiRobots from './data/ai-robots.json';
import crawlerUserAgents from './data/crawler-user-agents.json';
import type { BotIdentity } from './bot-category';
import { compileBotCatalog, type BotCatalog } from './bot-catalog';

/**
 * Only this many characters of a User-Agent are read: real ones are far
 * shorter (the longest sample in the lists has under 300), and the bound keeps
 * a hostile 100 KB header as cheap as a normal one.
 */
export const CLASSIFIED_USER_AGENT_LENGTH = 1024;

export interface BotClassifierOptions {
  /** How many distinct User-Agents keep their answer (least recently used go first). */
  readonly cacheSize?: number;
}

export type BotClassifier = (userAgent: string) => BotIdentity;

let catalog: BotCatalog | undefined;

/** The catalog of the vendored lists, compiled on first use (a few milliseconds) and shared. */
export function botCatalog(): BotCatalog {
  catalog ??= compileBotCatalog({ aiRobots, crawlerUserAgents });
  return catalog;
}

/**
 * A classifier with its own cache of answers per User-Agent string. A
 * User-Agent longer than the bound is classified on its first
 * CLASSIFIED_USER_AGENT_LENGTH characters and not cached, so the cache never
 * holds a huge key.
 */
export function createBotClassifier(options: BotClassifierOptions = {}): BotClassifier {
  const { identify } = botCatalog();
  const cache = new LRUCache<string, BotIdentity>({ max: options.cacheSize ?? 10_000 });
  return (userAgent) => {
    if (userAgent.length > CLASSIFIED_USER_AGENT_LENGTH) return identify(userAgent.slice(0, CLASSIFIED_USER_AGENT_LENGTH));
    const cached = cache.get(userAgent);
    if (cached !== undefined) return cached;
    const identity = identify(userAgent);
    cache.set(userAgent, identity);
    return identity;
  };
}

let shared: BotClassifier | undefined;

/** The bot a User-Agent names, its category and operator (`other`/`other`/`unknown` when none). Pure: same input, same answer; cached per User-Agent. */
export function classifyBot(userAgent: string): BotIdentity {
  shared ??= createBotClassifier();
  return shared(userAgent);
}

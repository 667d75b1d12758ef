import { BoundedMemo } from '@bpc/support';
import aiRobots from './lists/ai-robots.json';
import crawlerUserAgents from './lists/crawler-user-agents.json';
import type { BotIdentity } from './bot-category';
import { compileBotCatalog, type BotCatalog } from './bot-catalog';

/**
 * Only this many characters of a User-Agent are read: real ones are
 * shorter (the longest of the lists' 2,118 samples has 285), and the bound
 * caps what a hostile header costs: the lists' few `[\s\S]*` patterns take
 * time quadratic in the length read.
 */
export const CLASSIFIED_USER_AGENT_LENGTH = 512;

export interface BotClassifierOptions {
  /** How many distinct User-Agents keep their answer (the oldest go first). */
  readonly cacheSize?: number;
}

export type BotClassifier = (userAgent: string) => BotIdentity;

let catalog: BotCatalog | undefined;

/** The catalog of the vendored lists, compiled on first use and shared; compiling takes about 0.1 s, so a server calls this at boot rather than on its first request. */
export function botCatalog(): BotCatalog {
  catalog ??= compileBotCatalog({ aiRobots, crawlerUserAgents });
  return catalog;
}

/**
 * A classifier with its own memo of answers per User-Agent (the project's
 * `BoundedMemo`, as the edge memoises its other per-request lookups). A
 * User-Agent longer than the bound is classified on its first
 * CLASSIFIED_USER_AGENT_LENGTH characters and not remembered, so the memo
 * never holds a huge key.
 */
export function createBotClassifier(options: BotClassifierOptions = {}): BotClassifier {
  const { identify } = botCatalog();
  const memo = new BoundedMemo((userAgent) => identify(userAgent.slice(0, CLASSIFIED_USER_AGENT_LENGTH)), options.cacheSize ?? 10_000, CLASSIFIED_USER_AGENT_LENGTH);
  return (userAgent) => memo.get(userAgent);
}

let shared: BotClassifier | undefined;

/** The bot a User-Agent names, its category and operator (`other`/`other`/`unknown` when none). Pure: same input, same answer; cached per User-Agent. */
export function classifyBot(userAgent: string): BotIdentity {
  shared ??= createBotClassifier();
  return shared(userAgent);
}

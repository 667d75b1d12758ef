import { aiCategoryOfFunction, operatorNameOf, type AiRobotsEntry } from './ai-robots-rules';
import { UNKNOWN_BOT, UNKNOWN_OPERATOR, type BotIdentity } from './bot-category';
import { categoryOfCrawlerTags, operatorOfCrawlerUrl, type CrawlerUserAgentsEntry } from './crawler-user-agents-rules';
import { OWN_BOTS, TOOL_OPERATOR_CORRECTIONS, type OwnBot } from './own-bots';
import { TokenIndex, type TokenRule } from './token-index';

/** The vendored lists, as read from their files. */
export interface BotSources {
  readonly aiRobots: Readonly<Record<string, AiRobotsEntry>>;
  readonly crawlerUserAgents: readonly CrawlerUserAgentsEntry[];
}

/** A crawler-user-agents pattern that is not a plain literal, tested as the package writes it (case and anchors included). */
interface PatternRule {
  readonly pattern: RegExp;
  readonly rank: number;
  readonly value: BotIdentity;
}

/** Every bot we know, compiled for matching: our own table first, then ai.robots.txt (longest name first), then crawler-user-agents in its file's order. */
export interface BotCatalog {
  /** The bot a User-Agent names (whole string as given: callers bound its length), or `other`. */
  identify(userAgent: string): BotIdentity;
  /** Every bot the catalog can answer, once each by name (case aside: matching ignores it, so the first of two such names is the one answered). */
  readonly bots: readonly BotIdentity[];
}

// A pattern is a plain literal when it has no regular-expression syntax except escaped punctuation.
const LITERAL_PATTERN = /^(?:[^\\^$.*+?()[\]{}|]|\\[/.\- ()!:;])+$/;
// A bot's name is what its token says up to a version, a comment or a URL ("Googlebot/" → Googlebot, "Odin;" → Odin).
const NAME_END = /[/;(]/;

/** Compiles the lists and our table into one catalog; pure, and costly enough (about 0.1 s) to do once. */
export function compileBotCatalog(sources: BotSources): BotCatalog {
  const data = dataRules(sources);
  const samples = sources.crawlerUserAgents.map((entry) => entry.instances.join('\n').toLowerCase());
  const own = OWN_BOTS.map((bot, rank): TokenRule<BotIdentity> => ({ token: bot.token, atWordStart: false, rank: rank - OWN_BOTS.length, value: ownIdentity(bot, sources, samples) }));
  const index = new TokenIndex([...own, ...data.tokens]);
  const bots = uniqueByName([...own.map((rule) => rule.value), ...data.tokens.map((rule) => rule.value), ...data.patterns.map((rule) => rule.value)]);
  return { identify: (userAgent) => identifyWith(index, data.patterns, userAgent), bots };
}

function identifyWith(index: TokenIndex<BotIdentity>, patterns: readonly PatternRule[], userAgent: string): BotIdentity {
  const token = index.best(userAgent.toLowerCase());
  const bound = token?.rank ?? Number.POSITIVE_INFINITY;
  const pattern = patterns.find((rule) => rule.rank < bound && rule.pattern.test(userAgent));
  return pattern?.value ?? token?.value ?? UNKNOWN_BOT;
}

function dataRules(sources: BotSources): { tokens: TokenRule<BotIdentity>[]; patterns: PatternRule[] } {
  const tokens: TokenRule<BotIdentity>[] = [];
  const patterns: PatternRule[] = [];
  const cuaIdentities = sources.crawlerUserAgents.map((entry) => crawlerIdentity(entry));
  // Longest name first: a User-Agent that carries "AI2Bot-DeepResearchEval" carries "AI2Bot" too. The sort is stable, so of two names differing only in case the file's first wins.
  const aiByLength = Object.entries(sources.aiRobots).sort(([a], [b]) => b.length - a.length);
  for (const [name, entry] of aiByLength) {
    const operator = TOOL_OPERATOR_CORRECTIONS[name] ?? operatorNameOf(entry.operator);
    // Names, not patterns, some of them common words ("Spider", "Code"): matched only where a word starts.
    tokens.push({ token: name.toLowerCase(), atWordStart: true, rank: tokens.length, value: { name, category: aiCategoryOfFunction(entry.function), operator } });
  }
  const aiCount = tokens.length;
  sources.crawlerUserAgents.forEach((entry, i) => {
    const value = cuaIdentities[i];
    if (value === undefined) return;
    const rank = aiCount + i;
    // Matched anywhere, as the package's own tests match its patterns.
    if (LITERAL_PATTERN.test(entry.pattern)) tokens.push({ token: unescape(entry.pattern).toLowerCase(), atWordStart: false, rank, value });
    else patterns.push({ pattern: new RegExp(entry.pattern), rank, value });
  });
  return { tokens: withOperatorsFromCrawlerList(tokens, aiCount), patterns };
}

// ai.robots.txt often says "unclear" where crawler-user-agents' documentation URL names the operator.
function withOperatorsFromCrawlerList(tokens: TokenRule<BotIdentity>[], aiCount: number): TokenRule<BotIdentity>[] {
  const crawlerIndex = new TokenIndex(tokens.slice(aiCount));
  return tokens.map((rule, i) => {
    if (i >= aiCount || rule.value.operator !== UNKNOWN_OPERATOR) return rule;
    const operator = crawlerIndex.best(rule.token)?.value.operator ?? UNKNOWN_OPERATOR;
    return { ...rule, value: { ...rule.value, operator } };
  });
}

function crawlerIdentity(entry: CrawlerUserAgentsEntry): BotIdentity | undefined {
  const sample = entry.instances[0];
  const matched = LITERAL_PATTERN.test(entry.pattern) ? unescape(entry.pattern) : sample === undefined ? undefined : new RegExp(entry.pattern).exec(sample)?.[0];
  if (matched === undefined) return undefined;
  const name = matched.split(NAME_END)[0]?.trim() || matched.trim();
  return { name, category: categoryOfCrawlerTags(entry.tags ?? []), operator: operatorOfCrawlerUrl(entry.url) };
}

// Our table gives the operator; the category comes from the lists (ai.robots.txt by name, else the first crawler-user-agents entry with a sample carrying our token) unless the table gives one.
function ownIdentity(bot: OwnBot, sources: BotSources, lowercaseSamples: readonly string[]): BotIdentity {
  const aiEntry = Object.entries(sources.aiRobots).find(([name]) => name.toLowerCase() === bot.name.toLowerCase())?.[1];
  const crawlerEntry = aiEntry === undefined ? sources.crawlerUserAgents[lowercaseSamples.findIndex((samples) => samples.includes(bot.token))] : undefined;
  const fromLists = aiEntry !== undefined ? aiCategoryOfFunction(aiEntry.function) : crawlerEntry !== undefined ? categoryOfCrawlerTags(crawlerEntry.tags ?? []) : 'other';
  return { name: bot.name, category: bot.category ?? fromLists, operator: bot.operator };
}

function unescape(pattern: string): string {
  return pattern.replace(/\\(.)/g, '$1');
}

function uniqueByName(bots: readonly BotIdentity[]): BotIdentity[] {
  const seen = new Map<string, BotIdentity>();
  for (const bot of bots) if (!seen.has(bot.name.toLowerCase())) seen.set(bot.name.toLowerCase(), bot);
  return [...seen.values()];
}

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

/** Every bot we know, compiled for matching: our own table first, then ai.robots.txt, then crawler-user-agents, each in its file's order. */
export interface BotCatalog {
  /** The bot a User-Agent names (whole string as given: callers bound its length), or `other`. */
  identify(userAgent: string): BotIdentity;
  /** Every bot the catalog can answer, once each by name. */
  readonly bots: readonly BotIdentity[];
}

// A pattern is a plain literal when it has no regular-expression syntax except escaped punctuation.
const LITERAL_PATTERN = /^(?:[^\\^$.*+?()[\]{}|]|\\[/.\- ()!:;])+$/;
// A bot's name is what its token says up to a version, a comment or a URL ("Googlebot/" → Googlebot, "Odin;" → Odin).
const NAME_END = /[/;(]/;

export function compileBotCatalog(sources: BotSources): BotCatalog {
  const data = dataRules(sources);
  const dataIndex = new TokenIndex(data.tokens);
  const identifyInData = (text: string) => identifyWith(dataIndex, data.patterns, text);
  const own = OWN_BOTS.map((bot, rank): TokenRule<BotIdentity> => ({ token: bot.token, atWordStart: false, rank: rank - OWN_BOTS.length, value: ownIdentity(bot, sources, identifyInData) }));
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
  for (const [name, entry] of Object.entries(sources.aiRobots)) {
    const operator = TOOL_OPERATOR_CORRECTIONS[name] ?? operatorNameOf(entry.operator);
    tokens.push({ token: name.toLowerCase(), atWordStart: true, rank: tokens.length, value: { name, category: aiCategoryOfFunction(entry.function), operator } });
  }
  const aiCount = tokens.length;
  sources.crawlerUserAgents.forEach((entry, i) => {
    const value = cuaIdentities[i];
    if (value === undefined) return;
    const rank = aiCount + i;
    if (LITERAL_PATTERN.test(entry.pattern)) tokens.push({ token: unescape(entry.pattern).toLowerCase(), atWordStart: true, rank, value });
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

// Our table gives the operator; the category comes from the lists (ai.robots.txt by name, else what the lists make of the name or token) unless the table gives one.
function ownIdentity(bot: OwnBot, sources: BotSources, identifyInData: (text: string) => BotIdentity): BotIdentity {
  const aiEntry = Object.entries(sources.aiRobots).find(([name]) => name.toLowerCase() === bot.name.toLowerCase())?.[1];
  const fromLists = aiEntry !== undefined ? aiCategoryOfFunction(aiEntry.function) : [identifyInData(bot.name), identifyInData(bot.token)].find((id) => id !== UNKNOWN_BOT)?.category;
  return { name: bot.name, category: bot.category ?? fromLists ?? 'other', operator: bot.operator };
}

function unescape(pattern: string): string {
  return pattern.replace(/\\(.)/g, '$1');
}

function uniqueByName(bots: readonly BotIdentity[]): BotIdentity[] {
  const seen = new Map<string, BotIdentity>();
  for (const bot of bots) if (!seen.has(bot.name)) seen.set(bot.name, bot);
  return [...seen.values()];
}

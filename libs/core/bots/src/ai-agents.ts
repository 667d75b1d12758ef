import aiRobots from './lists/ai-robots.json';
import type { BotIdentity } from './bot-category';
import { botCatalog } from './classify-bot';
import { ROBOTS_TXT_ONLY_TOKENS } from './robots-txt-tokens';

/** An AI agent of the vendored ai.robots.txt list, as the catalog names it, with the token a robots.txt addresses it by. */
export interface AiAgent extends BotIdentity {
  /** Its robots.txt product token (ai.robots.txt lists agents by it, and builds its robots.txt with `User-agent: <name>`). */
  readonly robotsTxtToken: string;
  /** A token no crawler sends (`Google-Extended`): the crawler that fetches for it (`Googlebot`), else null. */
  readonly fetchedAs: string | null;
}

let agents: readonly AiAgent[] | undefined;

/**
 * Every agent of the ai.robots.txt list once (the list spells a few twice,
 * in two cases: the catalog's spelling is kept), with the catalog's name,
 * category and operator, so they match the `bot_name`, `bot_category` and
 * `bot_operator` the edge records. In the list's order (by name).
 */
export function aiAgents(): readonly AiAgent[] {
  if (agents) return agents;
  const byName = new Map(botCatalog().bots.map((bot) => [bot.name.toLowerCase(), bot]));
  const seen = new Set<string>();
  const list: AiAgent[] = [];
  for (const name of Object.keys(aiRobots)) {
    const identity = byName.get(name.toLowerCase());
    if (!identity || seen.has(identity.name.toLowerCase())) continue;
    seen.add(identity.name.toLowerCase());
    list.push({ ...identity, robotsTxtToken: identity.name, fetchedAs: ROBOTS_TXT_ONLY_TOKENS[identity.name] ?? null });
  }
  agents = list;
  return agents;
}

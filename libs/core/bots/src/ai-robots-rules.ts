import type { BotCategory } from './bot-category';
import { UNKNOWN_OPERATOR } from './bot-category';

/** One entry of the ai.robots.txt project's robots.json (the fields we read; all are free text). */
export interface AiRobotsEntry {
  readonly operator: string;
  readonly function: string;
}

// Ordered: the first rule whose pattern occurs in the entry's `function` text decides.
const FUNCTION_RULES: readonly { readonly category: BotCategory; readonly pattern: RegExp }[] = [
  // "AI Search Crawlers", "Collects data for AI search", "Search result generation.": an index for AI answers.
  { category: 'ai_search', pattern: /\bsearch\b/i },
  // "AI Assistants", "AI Agents", "AI Coding Agents", "…user-initiated prompts", "…answers to user queries": a person asked.
  { category: 'ai_assistant', pattern: /\bassistants?\b|\bagents?\b|user-initiated|user prompts?|user quer/i },
];

/**
 * The category of an ai.robots.txt entry, read from its free-text `function`:
 * search wording → `ai_search`, assistant, agent or user-request wording →
 * `ai_assistant`, anything else (training, "data scrapers", "data providers",
 * "unclear") → `ai_training`, since the list holds only AI crawlers and one
 * that names neither a person's request nor search collects for models.
 */
export function aiCategoryOfFunction(functionText: string): BotCategory {
  return FUNCTION_RULES.find((rule) => rule.pattern.test(functionText))?.category ?? 'ai_training';
}

// Operator texts that are not a company name, or that name it in a form we shorten; checked after the rules below.
const OPERATOR_ALIASES: Readonly<Record<string, string>> = {
  'meta/facebook': 'Meta',
  'common crawl foundation': 'Common Crawl',
  'the chinese company huawei': 'Huawei',
  'mistral ai': 'Mistral',
  'large-scale artificial intelligence open network': 'LAION',
  'safe.search.brave.com': 'Brave',
  'brightdata.com': 'Bright Data',
  'iss-corporate': 'ISS',
  'velen crawler': 'Velen',
  'devin ai': 'Cognition',
  'naget inc': 'Naget',
  phind: 'Phind',
  quillbot: 'QuillBot',
  you: 'You.com',
  // An open-source tool that anyone runs, not a company.
  img2dataset: UNKNOWN_OPERATOR,
  'unclear at this time.': UNKNOWN_OPERATOR,
  unknown: UNKNOWN_OPERATOR,
};

const MARKDOWN_LINK = /^\[([^\]]{1,80})\]\([^)]{0,200}\)$/;
const BARE_URL = /^https?:\/\/([^/\s]{1,100})/i;
// "Amazon, used for…", "Kagi that fetches…", "Cohere to download…", "Naget Inc (founded…": the name comes first.
const NAME_BEFORE_DESCRIPTION = /^(.{1,40}?)(?:,| that | to | \(|$)/;

/**
 * A clean company name from an ai.robots.txt `operator` text: the text of a
 * Markdown link, the host of a bare URL, or the words before a description
 * ("Google that retrieves…" → Google), then the alias table; `unknown` when
 * the text says it is unclear or is a sentence with no name in front.
 */
export function operatorNameOf(operatorText: string): string {
  const text = operatorText.trim();
  const name = (MARKDOWN_LINK.exec(text)?.[1] ?? BARE_URL.exec(text)?.[1] ?? NAME_BEFORE_DESCRIPTION.exec(text)?.[1] ?? '').trim();
  if (name === '') return UNKNOWN_OPERATOR;
  return OPERATOR_ALIASES[name.toLowerCase()] ?? name;
}

import { aiCategoryOfFunction, operatorNameOf } from './ai-robots-rules';

describe('aiCategoryOfFunction', () => {
  it.each([
    ['AI Search Crawlers', 'ai_search'],
    ['Search result generation.', 'ai_search'],
    ['Collects data for AI natural language search', 'ai_search'],
    ['AI Assistants', 'ai_assistant'],
    ['AI Coding Agents', 'ai_assistant'],
    ['Retrieves data to provide responses to user-initiated prompts.', 'ai_assistant'],
    ['Crawls sites to provide answers to user queries.', 'ai_assistant'],
    ["Scrapes data to train OpenAI's products.", 'ai_training'],
    ['AI Data Scrapers', 'ai_training'],
    ['Unclear at this time.', 'ai_training'],
  ])('%s → %s', (text, category) => {
    expect(aiCategoryOfFunction(text)).toBe(category);
  });
});

describe('operatorNameOf', () => {
  it.each([
    ['[OpenAI](https://openai.com)', 'OpenAI'],
    ['Google', 'Google'],
    ['Google that retrieves web content on behalf of Gemini API users', 'Google'],
    ['Amazon, used for fetching web content to answer user queries', 'Amazon'],
    ['Cohere to download training data for its LLMs', 'Cohere'],
    ['Naget Inc (founded by Chris Samarinas, headquarter in Amherst, Massachusetts)', 'Naget'],
    ['Meta/Facebook', 'Meta'],
    ['[Common Crawl Foundation](https://commoncrawl.org)', 'Common Crawl'],
    ['https://safe.search.brave.com/help/brave-search-crawler', 'Brave'],
    ['Unclear at this time.', 'unknown'],
    ['Unknown', 'unknown'],
    ["Anyone who downloads the Lightpanda client. Possibly being used by someone's botnet.", 'unknown'],
    ['', 'unknown'],
  ])('%s → %s', (text, operator) => {
    expect(operatorNameOf(text)).toBe(operator);
  });
});

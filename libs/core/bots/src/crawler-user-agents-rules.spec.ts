import { categoryOfCrawlerTags, operatorOfCrawlerUrl } from './crawler-user-agents-rules';

describe('categoryOfCrawlerTags', () => {
  it.each([
    [['search-engine'], 'search'],
    [['ai-crawler', 'search-engine'], 'ai_search'],
    [['ai-crawler'], 'ai_training'],
    [['ai-crawler', 'social-preview'], 'social'],
    [['social-preview'], 'social'],
    [['seo'], 'seo_tool'],
    [['feed-reader', 'seo'], 'seo_tool'],
    [['monitoring'], 'monitoring'],
    [['advertising'], 'other'],
    [['http-library'], 'other'],
    [[], 'other'],
  ])('%j → %s', (tags, category) => {
    expect(categoryOfCrawlerTags(tags)).toBe(category);
  });
});

describe('operatorOfCrawlerUrl', () => {
  it.each([
    ['http://www.google.com/bot.html', 'Google'],
    ['https://developers.google.com/search/docs/crawling-indexing/google-common-crawlers', 'Google'],
    ['http://www.bing.com/bingbot.htm', 'Microsoft'],
    // A third-party bot directory names no operator.
    ['https://datadome.co/bots/iaskspider/', 'unknown'],
    ['not a url', 'unknown'],
    [undefined, 'unknown'],
  ])('%s → %s', (url, operator) => {
    expect(operatorOfCrawlerUrl(url)).toBe(operator);
  });
});

import { agentTokensOf, convertsToMarkdown, isListedAgent } from './markdown-wanted';

describe('which answers have a Markdown form', () => {
  const render = { kind: 'render' as const, statusCode: 200, headers: { 'content-type': 'text/html; charset=utf-8' } };

  it('a render answered 2xx as HTML (or without a content type)', () => {
    expect(convertsToMarkdown(render)).toBe(true);
    expect(convertsToMarkdown({ ...render, statusCode: 203, headers: {} })).toBe(true);
    expect(convertsToMarkdown({ ...render, headers: { 'content-type': 'application/xhtml+xml' } })).toBe(true);
  });

  it.each([
    ['a bypass', { ...render, kind: 'bypass' as const }],
    ['a redirect', { ...render, statusCode: 301, headers: { location: '/x' } }],
    ['a 404', { ...render, statusCode: 404 }],
    ['a JSON answer', { ...render, headers: { 'content-type': 'application/json' } }],
    ['a content type that only mentions HTML', { ...render, headers: { 'content-type': 'text/plain; x=text/html' } }],
  ])('not %s', (_, entry) => {
    expect(convertsToMarkdown(entry)).toBe(false);
  });
});

describe('agents a website gives Markdown without asking', () => {
  const tokens = agentTokensOf(['ChatGPT-User', 'Claude-User']);

  it('matches a listed token anywhere in the User-Agent, whatever its case', () => {
    expect(isListedAgent(tokens, 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot')).toBe(true);
    expect(isListedAgent(tokens, 'claude-user/1.0')).toBe(true);
  });

  it('matches nothing else, and nothing when none are listed', () => {
    expect(isListedAgent(tokens, 'Mozilla/5.0 (compatible; Googlebot/2.1)')).toBe(false);
    expect(isListedAgent(tokens, '')).toBe(false);
    expect(isListedAgent([], 'ChatGPT-User')).toBe(false);
  });
});

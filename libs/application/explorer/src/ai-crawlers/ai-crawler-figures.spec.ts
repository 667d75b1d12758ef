import type { AiAgent } from '@bpc/bots';
import { aiCrawlerFigures, aiCrawlersSummary, spoofedFigures } from './ai-crawler-figures';
import { pathsToTry, robotsVerdicts } from './robots-stances';
import { MAX_JUDGED_RULE_LINES, robotsSnapshotOf, scanRobotsTxt } from './site-robots-txt';

const ROBOTS_URL = 'https://www.example.com/robots.txt';
const ORIGIN = 'https://www.example.com';
const NOW = Date.UTC(2026, 11, 7, 12);
const answered = (text: string | Buffer, status = 200) => robotsSnapshotOf(ROBOTS_URL, { kind: 'answered', status, body: Buffer.isBuffer(text) ? text : Buffer.from(text) }, NOW);

const SITE = `
User-agent: *
Disallow: /admin/

User-agent: GPTBot
User-agent: CCBot
Disallow: /docs/
Disallow: /private*

# Bytespider is not welcome at all
User-agent: Bytespider
Disallow: /
`;

const agent = (name: string, category = 'ai_training', operator = 'Example'): AiAgent => ({ name, category: category as AiAgent['category'], operator, robotsTxtToken: name, fetchedAs: null });
const AGENTS = [agent('ClaudeBot'), agent('GPTBot', 'ai_training', 'OpenAI'), agent('Bytespider'), agent('CCBot'), agent('ChatGPT-User', 'ai_assistant', 'OpenAI')];

describe('robots.txt of a site, judged for AI agents', () => {
  it('scans groups and disallowed paths as robots-parser reads them', () => {
    const scan = scanRobotsTxt(SITE);
    expect([...scan.namedTokens].sort()).toEqual(['*', 'bytespider', 'ccbot', 'gptbot']);
    expect(scan.disallowPaths).toEqual(['/admin/', '/docs/', '/private']);
    expect([scan.ruleLines, scan.rulePairs]).toEqual([4, 6]);
  });

  it('blocks, partly disallows or allows each agent on /, the paths the file disallows and the most requested ones', () => {
    const snapshot = answered(SITE);
    const paths = pathsToTry(snapshot, ['/pricing', '/docs/intro', '/']);
    expect(paths).toEqual(['/', '/admin/', '/docs/', '/private', '/pricing', '/docs/intro']);
    const verdicts = robotsVerdicts(snapshot, ORIGIN, AGENTS.map((a) => a.robotsTxtToken), paths);
    expect(Object.fromEntries(verdicts)).toEqual({
      ClaudeBot: { stance: 'partly_disallowed', disallowedPaths: ['/admin/'], named: false },
      GPTBot: { stance: 'partly_disallowed', disallowedPaths: ['/docs/', '/private', '/docs/intro'], named: true },
      Bytespider: { stance: 'blocked', disallowedPaths: ['/'], named: true },
      CCBot: { stance: 'partly_disallowed', disallowedPaths: ['/docs/', '/private', '/docs/intro'], named: true },
      'ChatGPT-User': { stance: 'partly_disallowed', disallowedPaths: ['/admin/'], named: false },
    });
    expect(snapshot.view).toEqual({ url: ROBOTS_URL, state: 'rules', httpStatus: 200, fetchedAt: '2026-12-07T12:00:00.000Z', reason: null, truncated: false });
  });

  it('follows the crawling conventions: a 4xx allows everything, a 5xx disallows everything, no answer is unknown', () => {
    const judge = (snapshot: ReturnType<typeof answered>) => robotsVerdicts(snapshot, ORIGIN, ['GPTBot'], pathsToTry(snapshot, [])).get('GPTBot')!.stance;
    expect([answered('', 404).view.state, judge(answered('', 404))]).toEqual(['none', 'allowed']);
    expect([answered('', 503).view.state, judge(answered('', 503))]).toEqual(['server_error', 'blocked']);
    const unreachable = robotsSnapshotOf(ROBOTS_URL, { kind: 'unreachable', reason: 'https://www.example.com/robots.txt: timed out' }, NOW);
    expect([unreachable.view, judge(unreachable)]).toEqual([{ url: ROBOTS_URL, state: 'unreachable', httpStatus: null, fetchedAt: '2026-12-07T12:00:00.000Z', reason: 'https://www.example.com/robots.txt: timed out', truncated: false }, 'unknown']);
  });

  it('does not judge a hostile file: too many rules, or one rule copied into thousands of groups', () => {
    const manyRules = answered(`User-agent: *\n${'Disallow: /x\n'.repeat(MAX_JUDGED_RULE_LINES + 1)}`);
    expect(manyRules.view).toMatchObject({ state: 'unjudged', reason: expect.stringContaining('2001 Allow/Disallow lines') });
    expect(manyRules.file).toBeNull();
    const manyGroups = answered(`${'User-agent: bot\n'.repeat(30_000)}Disallow: /\n`);
    expect(manyGroups.view.state).toBe('unjudged');
    const binary = answered(Buffer.concat([Buffer.from([0, 255, 254]), Buffer.from('\nUser-agent: GPTBot\nDisallow: /\n')]));
    expect(robotsVerdicts(binary, ORIGIN, ['GPTBot'], ['/']).get('GPTBot')!.stance).toBe('blocked');
  });
});

describe('AI crawler figures (pure assembly)', () => {
  const verdicts = robotsVerdicts(answered(SITE), ORIGIN, AGENTS.map((a) => a.robotsTxtToken), ['/', '/docs/']);
  const figures = aiCrawlerFigures(
    AGENTS,
    verdicts,
    [
      { bot_name: 'GPTBot', requests: 40, disallowed: 7 },
      { bot_name: 'ChatGPT-User', requests: '12' as unknown as number, disallowed: 0 },
    ],
    [
      { bot_name: 'GPTBot', url: 'https://www.example.com/docs/b', requests: 2 },
      { bot_name: 'GPTBot', url: 'https://www.example.com/docs/a', requests: 5 },
    ],
  );

  it('lists every agent, most requests first then by name, with its verdict and its disallowed crawling', () => {
    expect(figures.map((f) => [f.name, f.requests, f.robots])).toEqual([
      ['GPTBot', 40, 'partly_disallowed'],
      ['ChatGPT-User', 12, 'allowed'],
      ['Bytespider', 0, 'blocked'],
      ['CCBot', 0, 'partly_disallowed'],
      ['ClaudeBot', 0, 'allowed'],
    ]);
    expect(figures[0]).toEqual({
      name: 'GPTBot',
      operator: 'OpenAI',
      category: 'ai_training',
      robotsTxtToken: 'GPTBot',
      fetchedAs: null,
      robots: 'partly_disallowed',
      namedInRobotsTxt: true,
      disallowedPaths: ['/docs/'],
      requests: 40,
      disallowedRequests: 7,
      topDisallowedUrls: [
        { url: 'https://www.example.com/docs/a', requests: 5 },
        { url: 'https://www.example.com/docs/b', requests: 2 },
      ],
    });
  });

  it('sums them up: stances, agents seen, and those crawling disallowed pages anyway', () => {
    expect(aiCrawlersSummary(figures)).toEqual({ allowed: 2, partlyDisallowed: 2, blocked: 1, unknown: 0, namedInRobotsTxt: 3, agentsSeen: 2, requests: 52, disallowedRequests: 7, agentsIgnoringRobotsTxt: 1 });
  });

  it('gives spoofed traffic its share, renders avoided and caused, and its tops', () => {
    const spoofed = spoofedFigures({ requests: 400, spoofed: 30, renders_avoided: 6, renders_caused: 1 }, [
      { kind: 'url', item: 'https://www.example.com/b', requests: 4 },
      { kind: 'bot', item: 'Googlebot', requests: 28 },
      { kind: 'url', item: 'https://www.example.com/a', requests: 4 },
      { kind: 'bot', item: 'Bingbot', requests: 2 },
    ]);
    expect(spoofed).toEqual({
      requests: 30,
      share: 0.075,
      rendersAvoided: 6,
      rendersCaused: 1,
      topClaimedBots: [
        { bot: 'Googlebot', requests: 28 },
        { bot: 'Bingbot', requests: 2 },
      ],
      topUrls: [
        { url: 'https://www.example.com/a', requests: 4 },
        { url: 'https://www.example.com/b', requests: 4 },
      ],
    });
    expect(spoofedFigures(undefined, [])).toMatchObject({ requests: 0, share: null, topClaimedBots: [] });
  });
});

import { MAX_ROBOTS_TXT_BYTES, mayCrawl, robotsFileOf, siteStanceOn } from './robots-file';

const ROBOTS_URL = 'https://www.example.com/robots.txt';
const ORIGIN = 'https://www.example.com';
const answered = (body: string | Buffer, status = 200) => robotsFileOf(ROBOTS_URL, { kind: 'answered', status, body: Buffer.isBuffer(body) ? body : Buffer.from(body) });

const SITE = `
User-agent: *
Disallow: /admin
Allow: /admin/public

user-agent: GPTBot
disallow: /

User-Agent: ClaudeBot
Disallow: /private*
Allow: /private/ok$
`;

describe('robots.txt against a bot and a URL', () => {
  const file = answered(SITE);

  it('applies the group naming the bot, else `*`; the longest match wins, allow on a tie', () => {
    expect(mayCrawl(file, 'Googlebot', `${ORIGIN}/pricing`)).toBe(true);
    expect(mayCrawl(file, 'Googlebot', `${ORIGIN}/admin/users`)).toBe(false);
    expect(mayCrawl(file, 'Googlebot', `${ORIGIN}/admin/public/x`)).toBe(true);
    expect(mayCrawl(file, 'GPTBot', `${ORIGIN}/pricing`)).toBe(false);
    expect(mayCrawl(file, 'gptbot', `${ORIGIN}/pricing`)).toBe(false);
    expect(mayCrawl(file, 'ClaudeBot', `${ORIGIN}/private-notes`)).toBe(false);
    expect(mayCrawl(file, 'ClaudeBot', `${ORIGIN}/private/ok`)).toBe(true);
    expect(mayCrawl(file, 'ClaudeBot', `${ORIGIN}/admin`)).toBe(true);
  });

  it('says which bots the site blocks as a whole', () => {
    expect(['Googlebot', 'GPTBot', 'ClaudeBot'].map((bot) => [bot, siteStanceOn(file, bot, ORIGIN)])).toEqual([
      ['Googlebot', 'allowed'],
      ['GPTBot', 'blocked'],
      ['ClaudeBot', 'allowed'],
    ]);
  });

  it('treats answers as the crawling conventions say: 4xx allows all, 5xx and no answer disallow all', () => {
    expect(mayCrawl(answered('Disallow: /', 404), 'Googlebot', `${ORIGIN}/x`)).toBe(true);
    expect(mayCrawl(answered('', 503), 'Googlebot', `${ORIGIN}/x`)).toBe(false);
    expect(mayCrawl(robotsFileOf(ROBOTS_URL, { kind: 'unreachable', reason: 'redirected to an internal address' }), 'Googlebot', `${ORIGIN}/x`)).toBe(false);
  });

  it('reads only the first 500 KiB of a huge file, and binary as whatever lines parse', () => {
    const huge = answered(`User-agent: *\nDisallow: /a\n${'# filler\n'.repeat(MAX_ROBOTS_TXT_BYTES / 8)}Disallow: /b\n`);
    expect(huge).toMatchObject({ kind: 'rules', truncated: true });
    expect(mayCrawl(huge, 'Googlebot', `${ORIGIN}/a`)).toBe(false);
    expect(mayCrawl(huge, 'Googlebot', `${ORIGIN}/b`)).toBe(true);
    const binary = answered(Buffer.concat([Buffer.from([0, 255, 254, 7]), Buffer.from('\nUser-agent: *\nDisallow: /z\n')]));
    expect(mayCrawl(binary, 'Googlebot', `${ORIGIN}/z`)).toBe(false);
  });

  it('matches hostile wildcard patterns in linear time', () => {
    const hostile = answered(`User-agent: *\nDisallow: /${'*a'.repeat(2_000)}$\n`);
    const started = process.hrtime.bigint();
    expect(mayCrawl(hostile, 'Googlebot', `${ORIGIN}/${'a'.repeat(2_000)}b`)).toBe(true);
    // Not a timing assertion: a backtracking matcher would not come back at all.
    expect(Number(process.hrtime.bigint() - started) / 1e9).toBeLessThan(30);
  });

  it('leaves URLs of another origin to their own file', () => {
    expect(mayCrawl(answered('User-agent: *\nDisallow: /'), 'Googlebot', 'https://other.example.org/')).toBe(true);
  });
});

import { servingLeave } from './spoofed-bot-policy';

describe('servingLeave: the website policy acts on claims proven false only', () => {
  it.each([
    ['no', 'serve_cached_only', 'cached_only'],
    ['no', 'render', 'serve'],
    ['no', 'refuse', 'refuse'],
    ['yes', 'refuse', 'serve'],
    ['unknown', 'refuse', 'serve'],
    ['unknown', 'serve_cached_only', 'serve'],
  ] as const)('verified %s under %s → %s', (verified, policy, leave) => {
    expect(servingLeave(verified, policy)).toBe(leave);
  });
});

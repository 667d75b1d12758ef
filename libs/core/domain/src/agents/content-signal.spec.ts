import { parseContentSignal } from './content-signal';

describe('a Content-Signal value (contentsignals.org)', () => {
  it.each([
    ['search=yes, ai-input=yes, ai-train=no', 'search=yes, ai-input=yes, ai-train=no'],
    ['ai-train=no', 'ai-train=no'],
    [' Search = YES ,ai-train=no ', 'search=yes, ai-train=no'],
  ])('accepts %j as %j', (text, value) => {
    expect(parseContentSignal(text)).toEqual({ ok: true, value });
  });

  it.each([
    ['', /at least one signal/],
    [' , ', /at least one signal/],
    ['search=maybe', /not signal=yes or signal=no/],
    ['search', /not signal=yes or signal=no/],
    ['search=yes,', /not signal=yes or signal=no/],
    ['ai-sell=no', /unknown signal "ai-sell"/],
    ['search=yes, search=no', /given twice/],
    ['search=yes\r\nX-Evil: 1', /not signal=yes or signal=no/],
  ])('refuses %j, saying why', (text, reason) => {
    const parsed = parseContentSignal(text);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.reason).toMatch(reason);
  });
});

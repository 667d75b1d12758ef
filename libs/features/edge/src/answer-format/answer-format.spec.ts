import { answerFormatOf } from './answer-format';

describe('the format a bot asks for', () => {
  it.each([
    ['text/markdown', 'markdown'],
    ['text/markdown, text/html;q=0.9, */*;q=0.8', 'markdown'],
    ['text/markdown, text/html', 'markdown'],
    ['TEXT/Markdown ; q=1', 'markdown'],
    ['text/html, text/markdown', 'html'],
    ['text/html;q=0.5, text/markdown;q=0.6', 'markdown'],
    ['text/html;q=0.6, text/markdown;q=0.5', 'html'],
    ['text/markdown;q=0', 'html'],
    ['text/*, text/markdown;q=0.1', 'html'],
    ['*/*', 'html'],
    ['application/json', 'html'],
    [undefined, 'html'],
    ['', 'html'],
  ])('Accept %j → %s', (accept, format) => {
    expect(answerFormatOf(accept)).toBe(format);
  });

  it('garbage, huge or q-value-laden headers answer HTML or Markdown, never throw', () => {
    const garbage = ['text/markdown;q=abc', ';;;,,,===', 'text/markdown;q=1e309', '\u0000text/markdown', `${'x/y;q=0.1, '.repeat(2_000)}text/markdown`, `text/markdown;${'a=b;'.repeat(4_000)}`];
    for (const accept of garbage) expect(['html', 'markdown']).toContain(answerFormatOf(accept));
    expect(answerFormatOf(`${'x/y;q=0.1, '.repeat(2_000)}text/markdown`)).toBe('markdown');
  });
});

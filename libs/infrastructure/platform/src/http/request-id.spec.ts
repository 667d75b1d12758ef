import { requestIdOf } from './request-id';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('requestIdOf', () => {
  it.each(['abc', 'lb-7f3a.19', 'trace:4bf92f3577b34da6', '0af7651916cd43dd8448eb211c80319c', 'x'.repeat(64)])('takes the sane incoming id %s', (incoming) => {
    expect(requestIdOf(incoming)).toBe(incoming);
  });

  it.each([undefined, '', 'two words', 'x'.repeat(65), 'évil', 'a\nb', '{"json":1}', ['a', 'b']])('generates one instead of %j', (incoming) => {
    expect(requestIdOf(incoming)).toMatch(UUID);
  });
});

import { LocalEntries } from './local-entries';

describe('LocalEntries', () => {
  const following = (capacity = 10): LocalEntries<string> => {
    const local = new LocalEntries<string>(capacity);
    local.follow(true);
    return local;
  };

  it('keeps nothing while changes are not followed, and forgets everything when following starts or stops', () => {
    const local = new LocalEntries<string>(10);
    local.set('h:1', 'a', 'v', local.ticket());
    expect(local.get('h:1', 'a')).toBeUndefined();

    local.follow(true);
    local.set('h:1', 'a', 'v', local.ticket());
    expect(local.get('h:1', 'a')).toBe('v');
    local.follow(false);
    expect(local.get('h:1', 'a')).toBeUndefined();
    expect(local.ticket()).toBeUndefined();
  });

  it('does not keep an answer read while a key changed, nor one read before following restarted', () => {
    const local = following();
    const before = local.ticket();
    local.drop('h:2');
    local.set('h:1', 'a', 'old', before);
    expect(local.get('h:1', 'a')).toBeUndefined();

    const beforeRestart = local.ticket();
    local.follow(false);
    local.follow(true);
    local.set('h:1', 'a', 'old', beforeRestart);
    expect(local.get('h:1', 'a')).toBeUndefined();

    local.set('h:1', 'a', 'new', local.ticket());
    expect(local.get('h:1', 'a')).toBe('new');
  });

  it('drops every field of a changed key and only those; dropAll drops every key', () => {
    const local = following();
    for (const [key, field] of [['h:1', 'a'], ['h:1', 'b'], ['h:2', 'a']]) local.set(key, field, `${key}/${field}`, local.ticket());
    local.drop('h:1');
    expect([local.get('h:1', 'a'), local.get('h:1', 'b'), local.get('h:2', 'a')]).toEqual([undefined, undefined, 'h:2/a']);
    expect(local.size).toBe(1);
    local.dropAll();
    expect(local.get('h:2', 'a')).toBeUndefined();
    expect(local.size).toBe(0);
  });

  it('holds at most `capacity` fields, forgetting the oldest first', () => {
    const local = following(3);
    for (const field of ['a', 'b', 'c', 'd']) local.set('h:1', field, field, local.ticket());
    local.set('h:2', 'e', 'e', local.ticket());
    expect(local.size).toBe(3);
    expect(['a', 'b', 'c', 'd'].map((f) => local.get('h:1', f))).toEqual([undefined, undefined, 'c', 'd']);
    expect(local.get('h:2', 'e')).toBe('e');
    local.set('h:1', 'c', 'c2', local.ticket());
    expect(local.size).toBe(3);
  });

  it('keeps nothing at capacity 0', () => {
    const local = following(0);
    expect(local.ticket()).toBeUndefined();
    local.set('h:1', 'a', 'v', 0);
    expect(local.get('h:1', 'a')).toBeUndefined();
  });
});

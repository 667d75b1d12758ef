import { bodyOf, pathInteger, pathSegment } from './tool-arguments';
import { ArgumentRefusal } from './tool-result';

describe('tool arguments that become the API call', () => {
  it('encodes a path segment so it stays one segment', () => {
    expect(pathSegment({ website: 'demo/../other?x=1' }, 'website')).toBe('demo%2F..%2Fother%3Fx%3D1');
  });

  it.each(['.', '..', '', '  '])('refuses %j as a path segment: normalisation would fold it into another route', (value) => {
    expect(() => pathSegment({ website: value }, 'website')).toThrow(ArgumentRefusal);
    try {
      pathSegment({ website: value }, 'website');
    } catch (error) {
      expect((error as ArgumentRefusal).toResult()).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('(field: website)') }] });
    }
  });

  it('takes only positive integers as exportId', () => {
    expect(pathInteger({ exportId: 7 }, 'exportId')).toBe('7');
    for (const bad of ['7', 0, 1.5, -1, '1 OR 1=1']) expect(() => pathInteger({ exportId: bad }, 'exportId')).toThrow(ArgumentRefusal);
  });

  it('sends every other argument in the body, so the API names unknown keys', () => {
    expect(bodyOf({ website: 'demo', explorer: 'events', period: '7d', rows: 5 }, ['website', 'explorer'])).toEqual({ period: '7d', rows: 5 });
  });
});

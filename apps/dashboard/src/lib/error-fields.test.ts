import { describe, expect, it } from 'vitest';
import { explorerControls } from './explorer-state';
import { errorTarget, fieldAncestry, indexOf, withoutFieldName } from './error-fields';

describe('which control shows an API error', () => {
  const controls = explorerControls(2);

  it('is the control the field names', () => {
    expect(errorTarget('filters[1].val', controls)).toBe('filters[1].val');
    expect(errorTarget('perPage', controls)).toBe('perPage');
    expect(errorTarget('period', controls)).toBe('period');
    expect(errorTarget('compPeriod', controls)).toBe('compPeriod');
  });

  it('is the nearest parent control when the field is finer than the form', () => {
    expect(errorTarget('columns[3]', controls)).toBe('columns');
    expect(errorTarget('filters[0].val.pattern', controls)).toBe('filters[0].val');
    expect(errorTarget('filters[5].val', controls)).toBe('filters');
  });

  it('is none (the form shows it at its top) for a field no control claims, or no field', () => {
    expect(errorTarget('body', controls)).toBeUndefined();
    expect(errorTarget(undefined, controls)).toBeUndefined();
  });

  it('walks a field up to its root', () => {
    expect(fieldAncestry('filters[0].val')).toEqual(['filters[0].val', 'filters[0]', 'filters']);
    expect(fieldAncestry('urls[12]')).toEqual(['urls[12]', 'urls']);
  });

  it('reads the index of a per-URL error', () => {
    expect(indexOf('urls[12]', 'urls')).toBe(12);
    expect(indexOf('urls', 'urls')).toBeUndefined();
    expect(indexOf(undefined, 'urls')).toBeUndefined();
  });

  it('drops the parameter name an API message starts with, for a line the page names in words', () => {
    expect(withoutFieldName('urls[1] is not an absolute http(s) URL', 'urls[1]')).toBe('is not an absolute http(s) URL');
    expect(withoutFieldName('not on this website: www.other.example', 'urls[1]')).toBe('not on this website: www.other.example');
    expect(withoutFieldName('urls[10] is empty', 'urls[1]')).toBe('urls[10] is empty');
  });
});

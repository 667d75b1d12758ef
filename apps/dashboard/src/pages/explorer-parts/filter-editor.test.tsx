// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { ApiError } from '../../api/api-error';
import type { DiscoveryFilter } from '../../api/types';
import { explorerControls } from '../../lib/explorer-state';
import { FilterEditor } from './filter-editor';

afterEach(cleanup);

const definitions: DiscoveryFilter[] = [
  { field: 'url', title: 'URL', type: 'string', required: false, modes: [], operators: ['contains', 'empty'], valuelessOperators: ['empty'] },
  { field: 'cache_status', title: 'Cache status', type: 'enum', required: false, modes: [], operators: ['eq', 'ne'], valuelessOperators: [], options: [{ value: 'hit', label: 'Hit' }, { value: 'miss', label: 'Miss' }] },
  { field: 'status_code', title: 'Status code', type: 'number', required: false, modes: [], operators: ['eq', 'between'], valuelessOperators: [] },
];

describe('FilterEditor', () => {
  const applied = [
    { field: 'url', op: 'empty' },
    { field: 'cache_status', op: 'eq', val: 'hit' },
    { field: 'status_code', op: 'between', val: 'abc', val2: '299' },
  ];

  it('offers exactly the operators discovery lists, no input for a valueless one, a select for options', () => {
    render(<FilterEditor definitions={definitions} applied={applied} onApply={() => undefined} error={null} controls={explorerControls(3)} />);
    const ops = (i: number) => [...(document.getElementById(`filter-${i}-op`) as HTMLSelectElement).options].map((o) => o.value);
    expect(ops(0)).toEqual(['contains', 'empty']);
    expect(ops(1)).toEqual(['eq', 'ne']);
    expect(document.getElementById('filter-0-val')).toBeNull();
    expect(document.getElementById('filter-1-val')?.tagName).toBe('SELECT');
    expect(document.getElementById('filter-2-val2')).not.toBeNull();
    expect(document.getElementById('filter-1-val2')).toBeNull();
  });

  it('shows an API refusal at the control its field names', () => {
    const error = new ApiError(400, 'VALIDATION_FAILED', 'status_code takes a finite number', 'filters[2].val');
    render(<FilterEditor definitions={definitions} applied={applied} onApply={() => undefined} error={error} controls={explorerControls(3)} />);
    const message = screen.getByText('status_code takes a finite number');
    const input = document.getElementById('filter-2-val')!;
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.parentElement!.contains(message)).toBe(true);
    expect(screen.getAllByRole('alert')).toHaveLength(1);
  });

  it('applies the drafted filters together', () => {
    const onApply = vi.fn();
    render(<FilterEditor definitions={definitions} applied={[]} onApply={onApply} error={null} controls={explorerControls(0)} />);
    fireEvent.click(screen.getByRole('button', { name: 'Add filter' }));
    fireEvent.change(document.getElementById('filter-0-val')!, { target: { value: '/blog' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply filters' }));
    expect(onApply).toHaveBeenCalledWith([{ field: 'url', op: 'contains', val: '/blog' }]);
  });
});

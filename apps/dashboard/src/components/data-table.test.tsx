// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { DiscoveryColumn } from '../api/types';
import { DataTable } from './data-table';

afterEach(cleanup);

const columns: DiscoveryColumn[] = [
  { key: 'page', title: 'Page', group: 'Page', dataType: 'string', sortable: true, modes: [] },
  { key: 'requests', title: 'Requests', group: 'Traffic', dataType: 'integer', sortable: true, modes: [] },
  { key: 'user_agent', title: 'User agent', group: 'Request', dataType: 'string', sortable: false, modes: [] },
  { key: 'last_event_date_time', title: 'Last request (UTC)', group: 'Traffic', dataType: 'datetime', sortable: true, modes: [] },
];
const rows = [{ _rowId: 'https://a.example/', page: 'https://a.example/', _title: 'A page', requests: 1234, user_agent: 'Googlebot', last_event_date_time: '2026-11-27T10:00:00.000Z' }];

describe('DataTable', () => {
  it('sorts by clicking a sortable header (the API sorts), says which column is sorted, and leaves unsortable ones plain', () => {
    const onSort = vi.fn();
    render(<DataTable caption="rows" columns={columns} rows={rows} sort="requests" sortDir="desc" onSort={onSort} />);
    const requests = screen.getByRole('columnheader', { name: /Requests/ });
    expect(requests.getAttribute('aria-sort')).toBe('descending');
    fireEvent.click(screen.getByRole('button', { name: 'Page' }));
    expect(onSort).toHaveBeenCalledWith('page');
    expect(screen.queryByRole('button', { name: 'User agent' })).toBeNull();
  });

  it('shows times in the viewer zone with UTC on hover, the page title under its URL, numbers grouped', () => {
    render(<DataTable caption="rows" columns={columns} rows={rows} />);
    const time = document.querySelector('time')!;
    expect(time.getAttribute('title')).toBe('2026-11-27 10:00:00 UTC');
    expect(time.getAttribute('datetime')).toBe('2026-11-27T10:00:00.000Z');
    expect(screen.getByRole('columnheader', { name: 'Last request' })).toBeTruthy();
    expect(screen.getByText('A page')).toBeTruthy();
    expect(screen.getByText(/1.234/)).toBeTruthy();
  });
});

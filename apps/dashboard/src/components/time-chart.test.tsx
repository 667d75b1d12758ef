// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { TimeChart } from './time-chart';

afterEach(cleanup);

describe('TimeChart', () => {
  it('keeps the same height while its data is on its way and when there is none, so nothing below it moves', () => {
    render(<TimeChart title="Clicks" series={undefined} height={180} />);
    const pending = screen.getByRole('status', { name: 'Clicks: loading' });
    cleanup();
    render(<TimeChart title="Clicks" series={[]} height={180} />);
    const empty = screen.getByText('No data in this window.');
    expect(empty.style.minHeight).not.toBe('');
    expect(empty.style.minHeight).toBe(pending.style.minHeight);
  });
});

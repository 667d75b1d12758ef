import { useEffect, useRef } from 'react';
import type uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Series } from '../api/types';
import { isolatedIndices, seriesToColumns } from '../lib/chart-data';

// Distinguishable in light and dark (Okabe-Ito, then four more: ten bot families fit).
const PALETTE = ['#0072b2', '#e69f00', '#009e73', '#cc79a7', '#56b4e9', '#d55e00', '#f0e442', '#999999', '#6a3d9a', '#b15928', '#1b9e77', '#e7298a'];

const cssVar = (name: string, fallback: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;

interface TimeChartProps {
  title: string;
  /** Undefined while the data is on its way: the chart's space is kept for it. */
  series: Series[] | undefined;
  /** How a value reads in the legend and axis (counts, %, ms). */
  format?: (value: number) => string;
  height?: number;
  /** Smaller is better and drawn higher (search position). */
  invert?: boolean;
  /** Counts: whole-number ticks only (no 0.5 request drawn as "1"). */
  integer?: boolean;
}

/** uPlot's legend under the plot, one line high: the space a chart keeps for it before its data arrives. */
const LEGEND_ROW_PX = 32;

/** Tick steps for counts: uPlot picks the smallest that keeps the labels apart. */
const INTEGER_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000, 1_000_000, 2_000_000, 5_000_000, 10_000_000];

/** Series over time, drawn by uPlot (the viewer's time zone on the axis); the figure says in words what it shows. */
export function TimeChart({ title, series, format, height = 240, invert = false, integer = false }: TimeChartProps) {
  const box = useRef<HTMLDivElement>(null);
  // Asked for as the chart mounts, so it arrives while the data is on its way (a module is fetched once); a failure
  // here is the drawing's to report, which asks again.
  useEffect(() => void import('uplot').catch(() => undefined), []);
  useEffect(() => {
    const element = box.current;
    if (!element || !series?.length) return;
    const axisColor = cssVar('--muted', '#57606a');
    const gridColor = cssVar('--border', '#d0d7de');
    const value = (v: number | null) => (v === null || v === undefined ? '–' : format ? format(v) : String(v));
    const options: uPlot.Options = {
      width: Math.max(element.clientWidth, 280),
      height,
      series: [
        { label: 'Time' },
        ...series.map((s, i) => ({
          label: s.key,
          stroke: PALETTE[i % PALETTE.length],
          width: 2,
          spanGaps: false,
          // Where points are too dense to show, a value alone between gaps still gets its dot (a line needs two).
          points: { filter: (u: uPlot, seriesIndex: number, show: boolean) => (show ? null : isolatedIndices(u.data[seriesIndex] ?? [])) },
          value: (_u: uPlot, v: number | null) => value(v),
        })),
      ],
      axes: [
        { stroke: axisColor, grid: { stroke: gridColor, width: 1 }, ticks: { stroke: gridColor } },
        { stroke: axisColor, grid: { stroke: gridColor, width: 1 }, ticks: { stroke: gridColor }, size: 60, values: (_u, splits) => splits.map((v) => (format ? format(v) : String(v))), ...(integer ? { incrs: INTEGER_STEPS } : {}) },
      ],
      scales: { x: { time: true }, ...(invert ? { y: { dir: -1 } } : {}) },
      legend: { live: true },
      cursor: { drag: { x: false, y: false } },
    };
    // uPlot is a chunk of its own: the page's first render does not wait for it.
    let chart: uPlot | undefined;
    let removed = false;
    const resize = new ResizeObserver(() => chart?.setSize({ width: Math.max(element.clientWidth, 280), height }));
    void import('uplot').then(({ default: UPlot }) => {
      if (removed) return;
      chart = new UPlot(options, seriesToColumns(series) as uPlot.AlignedData, element);
      resize.observe(element);
    });
    return () => {
      removed = true;
      resize.disconnect();
      chart?.destroy();
    };
  }, [series, format, height, invert, integer]);

  // The same height whether the data is on its way, absent or drawn: nothing below the chart moves when it arrives.
  const reserved = { minHeight: height + LEGEND_ROW_PX };
  return (
    <figure className="card chart-figure">
      <figcaption>
        <strong>{title}</strong>
      </figcaption>
      {series === undefined ? (
        <div style={reserved} role="status" aria-label={`${title}: loading`} />
      ) : series.length === 0 ? (
        <p className="muted flush" style={reserved}>
          No data in this window.
        </p>
      ) : (
        <div ref={box} className="chart" style={reserved} role="img" aria-label={`${title}. ${series.map((s) => `${s.key}: ${s.points.length} points`).join(', ')}.`} />
      )}
    </figure>
  );
}

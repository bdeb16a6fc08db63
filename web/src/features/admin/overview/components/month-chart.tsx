import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Overview } from '../../../../../../contract/reports.ts';

type Month = Overview['by_month'][number];

/**
 * Volume and fees per month (USD), drawn with uPlot as bars on a canvas that follows the container's width. The
 * same figures are in the table beside it, for screen readers and for reading exact values.
 */
export function MonthChart({ months }: { months: Month[] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element || months.length === 0) return;
    const x = months.map((_, i) => i);
    const data: uPlot.AlignedData = [x, months.map((m) => m.volume_cents / 100), months.map((m) => m.fee_cents / 100)];
    const bars = uPlot.paths.bars!({ size: [0.6, 48], align: 0 });
    const width = () => Math.max(240, element.clientWidth);
    const chart = new uPlot(
      {
        width: width(),
        height: 240,
        legend: { show: true },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: false, range: [-0.5, months.length - 0.5] }, usd: { auto: true }, fee: { auto: true } },
        axes: [
          { values: (_u, ticks) => ticks.map((t) => months[t]?.month ?? ''), splits: () => x },
          { scale: 'usd', label: 'Volume (USD)', size: 70 },
          { scale: 'fee', side: 1, label: 'Fees (USD)', size: 70, grid: { show: false } },
        ],
        series: [
          { label: 'Month', value: (_u, v) => months[v]?.month ?? '' },
          {
            label: 'Volume',
            scale: 'usd',
            stroke: '#1d4ed8',
            fill: 'rgba(29, 78, 216, 0.35)',
            paths: bars,
            points: { show: false },
            value: (_u, v) => (v === null ? '' : `$${v.toFixed(2)}`),
          },
          {
            label: 'Fees',
            scale: 'fee',
            stroke: '#b45309',
            width: 2,
            value: (_u, v) => (v === null ? '' : `$${v.toFixed(2)}`),
          },
        ],
      },
      data,
      element,
    );
    const observer = new ResizeObserver(() => chart.setSize({ width: width(), height: 240 }));
    observer.observe(element);
    return () => {
      observer.disconnect();
      chart.destroy();
    };
  }, [months]);
  return (
    <div
      ref={box}
      className="month-chart"
      role="img"
      aria-label="Volume and fees per month, in US dollars; the same figures are in the table below"
    />
  );
}

/**
 * One benchmark figure as `npm run bench` reports it, and the two files it writes: bench/results.json (the array)
 * and bench/RESULTS.md (the same as a table a person reads).
 */
import { writeFileSync } from 'node:fs';

export interface BenchResult {
  name: string;
  unit: string;
  value: number;
  /** The figure measured on the same machine in the same run to compare against; null for absolute goals. */
  baseline: number | null;
  /** value / baseline (or baseline / value when lower is better); null for absolute goals. */
  ratio: number | null;
  /** A person's reading of the goal, e.g. ">= 0.5" or "< 200 MB". */
  goal: string;
  met: boolean;
}

const round = (n: number) => (Math.abs(n) >= 100 ? Math.round(n) : Math.round(n * 100) / 100);

/** A figure judged by its ratio to a baseline; `lowerIsBetter` for times and sizes. */
export function ratioResult(
  name: string,
  unit: string,
  value: number,
  baseline: number,
  minRatio: number,
  lowerIsBetter = false,
): BenchResult {
  const ratio = lowerIsBetter ? baseline / value : value / baseline;
  return {
    name,
    unit,
    value: round(value),
    baseline: round(baseline),
    ratio: Math.round(ratio * 1000) / 1000,
    goal: minRatio > 0 ? `ratio >= ${minRatio}` : 'for comparison',
    met: ratio >= minRatio,
  };
}

/** A figure judged against a fixed limit. */
export function limitResult(name: string, unit: string, value: number, limit: { below?: number; atLeast?: number }): BenchResult {
  const met = (limit.below === undefined || value < limit.below) && (limit.atLeast === undefined || value >= limit.atLeast);
  const goal = [limit.below !== undefined ? `< ${limit.below} ${unit}` : '', limit.atLeast !== undefined ? `>= ${limit.atLeast} ${unit}` : '']
    .filter(Boolean)
    .join(', ') || 'reported';
  return { name, unit, value: round(value), baseline: null, ratio: null, goal, met };
}

/** A yes/no property (value 1 when it holds). */
export function checkResult(name: string, holds: boolean, goal: string): BenchResult {
  return { name, unit: 'yes/no', value: holds ? 1 : 0, baseline: null, ratio: null, goal, met: holds };
}

/** A figure shown for comparison or information only: no goal of its own, not counted among the goals met. */
export const informational = (r: BenchResult) => r.goal === 'for comparison' || r.goal === 'reported';

export function printResult(r: BenchResult): void {
  const vs = r.baseline === null ? '' : ` vs ${r.baseline} -> ratio ${r.ratio}`;
  console.log(`${informational(r) ? 'info  ' : r.met ? 'met   ' : 'MISSED'} ${r.name}: ${r.value} ${r.unit}${vs} (goal ${r.goal})`);
}

export function writeResults(directory: string, results: BenchResult[], context: string[]): void {
  writeFileSync(`${directory}/results.json`, `${JSON.stringify(results, null, 2)}\n`);
  const cell = (v: number | null) => (v === null ? '-' : String(v));
  const lines = [
    '# Benchmark results',
    '',
    'Written by `npm run bench` (see bench/README.md). Each figure is compared with a baseline measured in the same',
    'run on the same machine, so the ratio is what to read; the absolute figures move with the machine.',
    '',
    ...context.map((c) => `- ${c}`),
    '',
    '| figure | unit | value | baseline | ratio | goal | met |',
    '|---|---|---:|---:|---:|---|---|',
    ...results.map((r) => `| ${r.name} | ${r.unit} | ${cell(r.value)} | ${cell(r.baseline)} | ${cell(r.ratio)} | ${r.goal} | ${informational(r) ? '-' : r.met ? 'yes' : '**no**'} |`),
    '',
  ];
  writeFileSync(`${directory}/RESULTS.md`, lines.join('\n'));
}

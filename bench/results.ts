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
  /** How many times the figure was measured: value, baseline and ratio are the medians of those runs. */
  runs?: number;
  /** The lowest and highest of the runs (of the ratio when there is one, else of the value). */
  spread?: [number, number];
  /** The spread reaches both sides of the goal: judged on the median, but another run may judge otherwise. */
  spreadCrossesGoal?: boolean;
}

/** The middle one of the runs (the mean of the two middle ones for an even count). */
export function median(samples: readonly number[]): number {
  if (samples.length === 0) throw new Error('no runs to take the median of');
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** How many times `npm run bench` measures each figure. */
export const RUNS = 3;

/** Runs `measure` `runs` times, one after the other; their results in order. */
export async function repeated<T>(measure: (run: number) => Promise<T>, runs = RUNS): Promise<T[]> {
  const results: T[] = [];
  for (let run = 0; run < runs; run++) results.push(await measure(run));
  return results;
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

/**
 * A figure measured several times, each run against its own baseline measured next to it: judged on the median
 * of the per-run ratios, with their spread; a spread that reaches both sides of the goal is flagged.
 */
export function ratioOfRuns(
  name: string,
  unit: string,
  values: readonly number[],
  baselines: readonly number[],
  minRatio: number,
): BenchResult {
  if (values.length !== baselines.length)
    throw new Error(`${name}: ${values.length} runs against ${baselines.length} baselines`);
  const ratios = values.map((v, i) => v / baselines[i]!);
  const ratio = median(ratios);
  const low = Math.min(...ratios);
  const high = Math.max(...ratios);
  return {
    ...ratioResult(name, unit, median(values), median(baselines), minRatio),
    ratio: Math.round(ratio * 1000) / 1000,
    met: ratio >= minRatio,
    runs: ratios.length,
    spread: [Math.round(low * 1000) / 1000, Math.round(high * 1000) / 1000],
    spreadCrossesGoal: minRatio > 0 && low < minRatio && high >= minRatio,
  };
}

/** A figure measured several times against a fixed limit: judged on the median, with the spread of the runs. */
export function limitOfRuns(
  name: string,
  unit: string,
  values: readonly number[],
  limit: { below?: number; atLeast?: number },
): BenchResult {
  const result = limitResult(name, unit, median(values), limit);
  const low = Math.min(...values);
  const high = Math.max(...values);
  const crosses =
    (limit.below !== undefined && low < limit.below && high >= limit.below) ||
    (limit.atLeast !== undefined && low < limit.atLeast && high >= limit.atLeast);
  return { ...result, runs: values.length, spread: [round(low), round(high)], spreadCrossesGoal: crosses };
}

/** A figure judged against a fixed limit. */
export function limitResult(
  name: string,
  unit: string,
  value: number,
  limit: { below?: number; atLeast?: number },
): BenchResult {
  const met =
    (limit.below === undefined || value < limit.below) && (limit.atLeast === undefined || value >= limit.atLeast);
  const goal =
    [
      limit.below !== undefined ? `< ${limit.below} ${unit}` : '',
      limit.atLeast !== undefined ? `>= ${limit.atLeast} ${unit}` : '',
    ]
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

/** "0.52-0.61 over 3 runs", and whether that spread crosses the goal. */
export function spreadText(r: BenchResult): string {
  if (!r.spread || !r.runs) return '-';
  return `${r.spread[0]}-${r.spread[1]} (${r.runs} runs)${r.spreadCrossesGoal ? ', crosses the goal' : ''}`;
}

export function printResult(r: BenchResult): void {
  const vs = r.baseline === null ? '' : ` vs ${r.baseline} -> ratio ${r.ratio}`;
  const spread = r.spread ? ` [median; ${spreadText(r)}]` : '';
  console.log(
    `${informational(r) ? 'info  ' : r.met ? 'met   ' : 'MISSED'} ${r.name}: ${r.value} ${r.unit}${vs}${spread} (goal ${r.goal})`,
  );
}

export function writeResults(directory: string, results: BenchResult[], context: string[]): void {
  writeFileSync(`${directory}/results.json`, `${JSON.stringify(results, null, 2)}\n`);
  const cell = (v: number | null) => (v === null ? '-' : String(v));
  const lines = [
    '# Benchmark results',
    '',
    'Written by `npm run bench` (see bench/README.md). Each figure is compared with a baseline measured in the same',
    'run on the same machine, so the ratio is what to read; the absolute figures move with the machine. A figure',
    `measured ${RUNS} times shows the medians and the spread of its runs (of the ratio when it has one); it is judged on`,
    'the median, and a spread that reaches both sides of its goal says so.',
    '',
    ...context.map((c) => `- ${c}`),
    '',
    '| figure | unit | value | baseline | ratio | spread | goal | met |',
    '|---|---|---:|---:|---:|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.name} | ${r.unit} | ${cell(r.value)} | ${cell(r.baseline)} | ${cell(r.ratio)} | ${spreadText(r)} | ${r.goal} | ${informational(r) ? '-' : r.met ? 'yes' : '**no**'} |`,
    ),
    '',
  ];
  writeFileSync(`${directory}/RESULTS.md`, lines.join('\n'));
}

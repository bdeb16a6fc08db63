import { collectGarbageIfDue } from './heap.ts';

/**
 * Progress of a long command on stderr (stdout stays the command's answer, for pipes and scripts). On a terminal a
 * bar redrawn in place with the rate and the time left; otherwise (a log file, a pipe, CI, a cron job) a plain line
 * every `intervalMs`. Either way a last line with the total, the rate and the time taken. Each report is also when
 * the command's garbage is collected if due (heap.ts).
 */

export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface ProgressOptions {
  /** What is counted: `events`, `bytes` (shown in MB), `steps`. */
  unit: string;
  /** How many there will be, when known: gives a percentage and the time left. */
  total?: number;
  stream?: ProgressStream;
  /** Plain output: at most one line this often (10 s). */
  intervalMs?: number;
  /** A terminal: at most one redraw this often (100 ms). */
  redrawMs?: number;
  now?: () => number;
}

export interface Progress {
  /** `done` so far (absolute). */
  update(done: number): void;
  /** `n` more done. */
  add(n: number): void;
  /** The total, once it is known. */
  setTotal(total: number): void;
  /** The last line; `note` is appended to it. */
  finish(note?: string): void;
}

const grouped = (n: number) => Math.round(n).toLocaleString('en-US');
const megabytes = (n: number) => `${(n / 1_048_576).toFixed(1)} MB`;

/** `75 s`, `12 min 5 s`, `1 h 3 min`. */
export function formatDuration(seconds: number): string {
  if (seconds < 10) return `${Math.max(0, seconds).toFixed(1)} s`;
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

export function startProgress(label: string, options: ProgressOptions): Progress {
  const stream = options.stream ?? process.stderr;
  const now = options.now ?? (() => performance.now());
  const tty = stream.isTTY === true;
  const every = tty ? (options.redrawMs ?? 100) : (options.intervalMs ?? 10_000);
  const bytes = options.unit === 'bytes';
  const amount = (n: number) => (bytes ? megabytes(n) : `${grouped(n)} ${options.unit}`);
  const started = now();
  let total = options.total;
  let done = 0;
  let shownAt = started;
  let finished = false;

  const rate = (elapsedMs: number) => (elapsedMs > 0 ? (done * 1000) / elapsedMs : 0);
  const rateText = (elapsedMs: number) =>
    bytes ? `${megabytes(rate(elapsedMs))}/s` : `${grouped(rate(elapsedMs))} ${options.unit}/s`;
  const left = (elapsedMs: number) => {
    const r = rate(elapsedMs);
    return total !== undefined && r > 0 ? formatDuration(Math.max(0, total - done) / r) : undefined;
  };
  const share = () => (total ? Math.min(1, done / total) : undefined);

  function plainLine(elapsedMs: number): string {
    const fraction = share();
    const count = total === undefined ? amount(done) : `${bytes ? megabytes(done) : grouped(done)} of ${amount(total)}`;
    const percent = fraction !== undefined ? ` (${Math.floor(fraction * 100)}%)` : '';
    const eta = left(elapsedMs);
    return `${label}: ${count}${percent}, ${rateText(elapsedMs)}${eta ? `, about ${eta} left` : ''}`;
  }

  function barLine(elapsedMs: number): string {
    const fraction = share();
    const eta = left(elapsedMs);
    const tail = ` ${fraction !== undefined ? `${String(Math.floor(fraction * 100)).padStart(3)}% ` : ''}${amount(done)}${total !== undefined ? `/${amount(total)}` : ''} ${rateText(elapsedMs)}${eta ? ` ETA ${eta}` : ''}`;
    const room = Math.max(10, Math.min(40, (stream.columns ?? 80) - label.length - tail.length - 4));
    if (fraction === undefined) return `${label}${tail}`;
    const filled = Math.round(fraction * room);
    return `${label} [${'#'.repeat(filled)}${'-'.repeat(room - filled)}]${tail}`;
  }

  function show(force: boolean) {
    if (finished) return;
    const at = now();
    if (!force && at - shownAt < every) return;
    shownAt = at;
    if (tty) stream.write(`\r${barLine(at - started)}\u001b[K`);
    else stream.write(`${plainLine(at - started)}\n`);
  }

  if (tty) show(true);
  return {
    update(value) {
      done = value;
      show(false);
      collectGarbageIfDue();
    },
    add(n) {
      done += n;
      show(false);
      collectGarbageIfDue();
    },
    setTotal(value) {
      total = value;
    },
    finish(note) {
      if (finished) return;
      const elapsed = now() - started;
      if (tty) stream.write(`\r${barLine(elapsed)}\u001b[K\n`);
      finished = true;
      stream.write(
        `${label}: ${amount(done)} in ${formatDuration(elapsed / 1000)}, ${rateText(elapsed)}${note ? `; ${note}` : ''}\n`,
      );
    },
  };
}

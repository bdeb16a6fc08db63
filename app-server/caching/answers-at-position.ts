/** Bytes kept over all answers; the least recently stored goes first. */
const MAX_BYTES = 16_000_000;

/**
 * Answers (JSON texts) computed from read models that change only when certain events are appended, kept while
 * the position of the last such event has not moved. Each request brings the position it read (one index probe,
 * or a column of a query it runs anyway) and is answered from memory while that is still the position the answers
 * were kept at: as fresh as the database, without running the answer's query again. Appends by any process move
 * the position, since it is read from the log.
 *
 * An answer computed after reading a position is at least that fresh, so it is kept under that position. A request
 * that read an older position than the one kept (it raced an append) is answered afresh and keeps nothing.
 *
 * An answer that also depends on the clock says until when it holds, and is computed afresh from then on.
 *
 * Answers are kept and given as their UTF-8 bytes: a kept answer is written to each socket as it is, where a text
 * would be encoded again for every request (a 40 KB list answered at half the rate as text).
 */
export class AnswersAtPosition {
  private position = -1;
  private bytes = 0;
  private readonly answers = new Map<string, KeptAnswer>();

  async answer(position: number, key: string, compute: () => Promise<Computed>): Promise<Buffer<ArrayBuffer>> {
    if (position > this.position) {
      this.answers.clear();
      this.bytes = 0;
      this.position = position;
    }
    if (position < this.position) return bytesOf(await compute());
    const kept = this.answers.get(key);
    if (kept !== undefined && Date.now() < kept.until) return kept.bytes;
    const computed = await compute();
    const fresh = bytesOf(computed);
    if (this.position === position && this.answers.get(key) === kept) {
      this.drop(key);
      this.keep(key, { bytes: fresh, until: typeof computed === 'string' ? Infinity : computed.until });
    }
    return fresh;
  }

  private drop(key: string): void {
    const kept = this.answers.get(key);
    if (!kept) return;
    this.answers.delete(key);
    this.bytes -= kept.bytes.length;
  }

  private keep(key: string, answer: KeptAnswer): void {
    if (answer.bytes.length > MAX_BYTES / 4) return;
    this.answers.set(key, answer);
    this.bytes += answer.bytes.length;
    for (const [oldest, { bytes }] of this.answers) {
      if (this.bytes <= MAX_BYTES) break;
      this.answers.delete(oldest);
      this.bytes -= bytes.length;
    }
  }
}

/**
 * A computed answer: its text, and when it depends on the clock as well (say, an address held until a given time),
 * the time (ms since the epoch) from which it may be stale though the position has not moved.
 */
export type Computed = string | { text: string; until: number };

interface KeptAnswer {
  bytes: Buffer<ArrayBuffer>;
  until: number;
}

export const bytesOf = (computed: Computed) => Buffer.from(typeof computed === 'string' ? computed : computed.text);

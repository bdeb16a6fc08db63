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
 * Answers are kept and given as their UTF-8 bytes: a kept answer is written to each socket as it is, where a text
 * would be encoded again for every request (a 40 KB list answered at half the rate as text).
 */
export class AnswersAtPosition {
  private position = -1;
  private bytes = 0;
  private readonly answers = new Map<string, Buffer<ArrayBuffer>>();

  async answer(position: number, key: string, compute: () => Promise<string>): Promise<Buffer<ArrayBuffer>> {
    if (position > this.position) {
      this.answers.clear();
      this.bytes = 0;
      this.position = position;
    }
    if (position < this.position) return Buffer.from(await compute());
    const kept = this.answers.get(key);
    if (kept !== undefined) return kept;
    const fresh = Buffer.from(await compute());
    if (this.position === position && !this.answers.has(key)) this.keep(key, fresh);
    return fresh;
  }

  private keep(key: string, answer: Buffer<ArrayBuffer>): void {
    if (answer.length > MAX_BYTES / 4) return;
    this.answers.set(key, answer);
    this.bytes += answer.length;
    for (const [oldest, bytes] of this.answers) {
      if (this.bytes <= MAX_BYTES) break;
      this.answers.delete(oldest);
      this.bytes -= bytes.length;
    }
  }
}

/** Text kept, in characters, over all answers; the least recently stored goes first. */
const MAX_CHARS = 16_000_000;

/**
 * Answers (JSON texts) computed from read models that change only when certain events are appended, kept while
 * the position of the last such event has not moved. Each request brings the position it read (one index probe,
 * or a column of a query it runs anyway) and is answered from memory while that is still the position the answers
 * were kept at: as fresh as the database, without running the answer's query again. Appends by any process move
 * the position, since it is read from the log.
 *
 * An answer computed after reading a position is at least that fresh, so it is kept under that position. A request
 * that read an older position than the one kept (it raced an append) is answered afresh and keeps nothing.
 */
export class AnswersAtPosition {
  private position = -1;
  private chars = 0;
  private readonly answers = new Map<string, string>();

  async answer(position: number, key: string, compute: () => Promise<string>): Promise<string> {
    if (position > this.position) {
      this.answers.clear();
      this.chars = 0;
      this.position = position;
    }
    if (position < this.position) return compute();
    const kept = this.answers.get(key);
    if (kept !== undefined) return kept;
    const fresh = await compute();
    if (this.position === position && !this.answers.has(key)) this.keep(key, fresh);
    return fresh;
  }

  private keep(key: string, answer: string): void {
    if (answer.length > MAX_CHARS / 4) return;
    this.answers.set(key, answer);
    this.chars += answer.length;
    for (const [oldest, text] of this.answers) {
      if (this.chars <= MAX_CHARS) break;
      this.answers.delete(oldest);
      this.chars -= text.length;
    }
  }
}

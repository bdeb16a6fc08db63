import { afterEach, describe, expect, it, vi } from 'vitest';
import { AnswersAtPosition } from './answers-at-position.ts';

/** A computation that counts its runs and answers with the run number. */
function counted(prefix = '') {
  let runs = 0;
  return { compute: async () => `${prefix}${++runs}`, runs: () => runs };
}

/** The answer's text (answers are kept and given as UTF-8 bytes). */
const text = async (answer: Promise<Buffer<ArrayBuffer>>) => (await answer).toString('utf8');

describe('AnswersAtPosition', () => {
  it('answers from memory while the position stays, and afresh once it moves', async () => {
    const answers = new AnswersAtPosition();
    const list = counted();
    expect(await text(answers.answer(7, 'ann', list.compute))).toBe('1');
    expect(await text(answers.answer(7, 'ann', list.compute))).toBe('1');
    expect(await text(answers.answer(8, 'ann', list.compute))).toBe('2');
    expect(list.runs()).toBe(2);
  });

  it('keeps each key apart', async () => {
    const answers = new AnswersAtPosition();
    expect(await text(answers.answer(1, 'ann', counted('ann ').compute))).toBe('ann 1');
    expect(await text(answers.answer(1, 'bob', counted('bob ').compute))).toBe('bob 1');
    expect(await text(answers.answer(1, 'ann', counted('other ').compute))).toBe('ann 1');
  });

  it('never keeps what a request that read an older position computed, nor goes back to that position', async () => {
    const answers = new AnswersAtPosition();
    await answers.answer(9, 'ann', counted('new ').compute);
    const late = counted('late ');
    expect(await text(answers.answer(8, 'ann', late.compute))).toBe('late 1');
    expect(await text(answers.answer(8, 'ann', late.compute))).toBe('late 2');
    expect(await text(answers.answer(9, 'ann', counted('again ').compute))).toBe('new 1');
  });

  it('drops the oldest answers beyond its bound on kept bytes', async () => {
    const answers = new AnswersAtPosition();
    const big = 'x'.repeat(3_000_000);
    for (const key of ['a', 'b', 'c', 'd', 'e', 'f']) await answers.answer(1, key, async () => big);
    const first = counted();
    expect(await text(answers.answer(1, 'a', first.compute))).toBe('1'); // dropped: computed again
    expect(await text(answers.answer(1, 'f', counted().compute))).toBe(big); // the newest is kept
  });

  it('gives an answer as the UTF-8 bytes of its text', async () => {
    const answers = new AnswersAtPosition();
    const answer = await answers.answer(1, 'ann', async () => '{"name":"Zoë"}');
    expect(answer.length).toBe(15);
    expect(answer.toString('utf8')).toBe('{"name":"Zoë"}');
  });
});

describe('AnswersAtPosition with answers that depend on the clock', () => {
  afterEach(() => vi.useRealTimers());

  it('computes an answer afresh once the time it holds until has come, though the position stays', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: 1_000 });
    const answers = new AnswersAtPosition();
    let runs = 0;
    const compute = async () => ({ text: `run ${++runs}`, until: 2_000 });
    expect(await text(answers.answer(1, 'ann', compute))).toBe('run 1');
    vi.setSystemTime(1_999);
    expect(await text(answers.answer(1, 'ann', compute))).toBe('run 1');
    vi.setSystemTime(2_000);
    expect(await text(answers.answer(1, 'ann', compute))).toBe('run 2');
    vi.setSystemTime(1_500);
    expect(await text(answers.answer(1, 'ann', compute))).toBe('run 2');
  });
});

import { describe, expect, it } from 'vitest';
import { AnswersAtPosition } from './answers-at-position.ts';

/** A computation that counts its runs and answers with the run number. */
function counted(prefix = '') {
  let runs = 0;
  return { compute: async () => `${prefix}${++runs}`, runs: () => runs };
}

describe('AnswersAtPosition', () => {
  it('answers from memory while the position stays, and afresh once it moves', async () => {
    const answers = new AnswersAtPosition();
    const list = counted();
    expect(await answers.answer(7, 'ann', list.compute)).toBe('1');
    expect(await answers.answer(7, 'ann', list.compute)).toBe('1');
    expect(await answers.answer(8, 'ann', list.compute)).toBe('2');
    expect(list.runs()).toBe(2);
  });

  it('keeps each key apart', async () => {
    const answers = new AnswersAtPosition();
    expect(await answers.answer(1, 'ann', counted('ann ').compute)).toBe('ann 1');
    expect(await answers.answer(1, 'bob', counted('bob ').compute)).toBe('bob 1');
    expect(await answers.answer(1, 'ann', counted('other ').compute)).toBe('ann 1');
  });

  it('never keeps what a request that read an older position computed, nor goes back to that position', async () => {
    const answers = new AnswersAtPosition();
    await answers.answer(9, 'ann', counted('new ').compute);
    const late = counted('late ');
    expect(await answers.answer(8, 'ann', late.compute)).toBe('late 1');
    expect(await answers.answer(8, 'ann', late.compute)).toBe('late 2');
    expect(await answers.answer(9, 'ann', counted('again ').compute)).toBe('new 1');
  });

  it('drops the oldest answers beyond its bound on kept text', async () => {
    const answers = new AnswersAtPosition();
    const big = 'x'.repeat(3_000_000);
    for (const key of ['a', 'b', 'c', 'd', 'e', 'f']) await answers.answer(1, key, async () => big);
    const first = counted();
    expect(await answers.answer(1, 'a', first.compute)).toBe('1'); // dropped: computed again
    expect(await answers.answer(1, 'f', counted().compute)).toBe(big); // the newest is kept
  });
});

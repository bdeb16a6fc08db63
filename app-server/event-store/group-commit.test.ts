import { describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit.ts';

describe('GroupCommit', () => {
  it('answers each job of a batch with its own result, and refuses a job the batch left unanswered', async () => {
    const commits = new GroupCommit<number, string>(async (batch) => {
      for (const q of batch) if (q.job !== 2) q.resolve(`done ${q.job}`);
    });
    const outcomes = await Promise.allSettled([1, 2, 3].map((job) => commits.submit(job)));
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message))).toEqual([
      'done 1',
      'the batch left this append unanswered',
      'done 3',
    ]);
  });

  it('refuses with the batch’s own error the jobs it had not answered when it failed', async () => {
    const commits = new GroupCommit<number, string>(async (batch) => {
      for (const q of batch) {
        if (q.job === 1) q.resolve('first');
        if (q.job === 2) q.reject(new Error('its own refusal'));
        if (q.job === 3) throw new Error('the commit failed');
      }
    });
    const outcomes = await Promise.allSettled([1, 2, 3].map((job) => commits.submit(job)));
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message))).toEqual([
      'first',
      'its own refusal',
      'the commit failed',
    ]);
  });
});

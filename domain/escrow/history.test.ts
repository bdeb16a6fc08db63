import { describe, expect, it } from 'vitest';
import type { EscrowEvent } from './events.ts';
import { partyHistory } from './history.ts';

describe("the parties' history", () => {
  it('says when the inspection period ends as people read a time, not as a machine stores it', () => {
    const received = {
      type: 'GoodsReceived',
      data: { inspection_ends_at: '2026-11-27T02:28:10.758Z' },
      occurred_at: '2026-11-26T02:28:10.758Z',
      stream_version: 6,
    } as EscrowEvent & {
      occurred_at: string;
      stream_version: number;
    };
    expect(partyHistory([received])[0]).toMatchObject({
      summary: 'Marked received by the buyer; the inspection period ends 27 Nov 2026, 02:28 UTC',
      actor_side: 'buyer',
    });
  });
});

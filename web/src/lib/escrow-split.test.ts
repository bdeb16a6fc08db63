import { describe, expect, it } from 'vitest';
import { escrowFixture } from '../testing/escrow-fixture.ts';
import type { Escrow } from '../features/escrows/api/types.ts';
import { splitOf } from './escrow-split.ts';

const at = '2026-11-25T10:00:00.000Z';
const proposal = (
  kind: 'split' | 'refund',
  status: 'accepted' | 'declined',
  seller_percent: number | null,
): Escrow['proposals'][number] => ({
  id: `p-${kind}-${status}`,
  kind,
  status,
  proposed_by: 'buyer',
  seller_percent,
  days: null,
  note: null,
  seller_sats: null,
  buyer_sats: null,
  created_at: at,
});

describe('how a released escrow was divided (its badge says Split, not Released)', () => {
  it('is the split both parties agreed to, paid out without a dispute', () => {
    expect(
      splitOf(
        escrowFixture({
          status: 'released',
          proposals: [proposal('split', 'declined', 90), proposal('split', 'accepted', 70)],
        }),
      ),
    ).toEqual({ seller: 70, buyer: 30 });
  });

  it('is nothing for a plain release, a refused split, or a split agreed but not paid out yet', () => {
    expect(splitOf(escrowFixture({ status: 'released' }))).toBeNull();
    expect(splitOf(escrowFixture({ status: 'released', proposals: [proposal('split', 'declined', 90)] }))).toBeNull();
    expect(splitOf(escrowFixture({ status: 'funded', proposals: [proposal('split', 'accepted', 70)] }))).toBeNull();
  });
});

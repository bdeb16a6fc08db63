import type { KyselyPlugin, RootOperationNode } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { escrowAggregate } from '../../domain/aggregates.ts';
import { openAppStore } from '../app-store.ts';
import { createApp } from '../http/app.ts';
import { form, json } from '../testing/accounts.ts';
import { freshAddress } from '../testing/bitcoin.ts';
import { openFundedDeal, openMarket } from '../testing/market.ts';
import { openTestApp, type TestApp } from '../testing/test-app.ts';

/**
 * What a release costs in reads of the escrow's stream and folds of it: the money guard looks at the stream the
 * command read and folded, and the route answers from the state the command left. Counted on an app whose store
 * remembers nothing yet (a process that just started), so every read goes to the database.
 */
let t: TestApp;
beforeAll(async () => {
  t = await openTestApp();
});
beforeEach(async () => t.database.reset());
afterEach(() => vi.restoreAllMocks());
afterAll(async () => t.close());

/** Counts the statements that read an escrow stream's events (their content, not only their hashes). */
function streamReads(escrowId: string) {
  const seen = { count: 0 };
  const reads = (node: RootOperationNode) => {
    const text = JSON.stringify(node);
    return (
      node.kind === 'SelectQueryNode' &&
      text.includes('"name":"events"') &&
      text.includes('"name":"data"') &&
      text.includes(`escrow:${escrowId}`)
    );
  };
  const plugin: KyselyPlugin = {
    transformQuery: ({ node }) => {
      if (reads(node)) seen.count += 1;
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  return { seen, plugin };
}

/** The app again, on the same database, with its reads counted and a store that has not seen the deal. */
function countedApp(plugin: KyselyPlugin) {
  const db = t.database.db.withPlugin(plugin);
  const database = { ...t.database, db };
  return createApp({ ...t.deps, database, store: openAppStore(db, t.deps.config) });
}

describe('a money action reads its escrow once', () => {
  it('makes one read of the stream and one fold of it, and answers the released escrow', async () => {
    const deal = await openFundedDeal(t, { payout: '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa' });
    const { seen, plugin } = streamReads(deal.id);
    const app = countedApp(plugin);
    const folds = vi.spyOn(escrowAggregate, 'initial');

    const res = await app.request(
      `/api/admin/escrows/${deal.id}/release`,
      form({ notes: 'sent', txid: 'b'.repeat(64) }, deal.admin.token),
    );

    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; payout_txid: string; allowed_actions: string[]; side: string };
    expect(body).toMatchObject({ status: 'released', payout_txid: 'b'.repeat(64), side: 'admin' });
    expect(body.allowed_actions).not.toContain('release');
    expect(seen.count).toBe(1);
    expect(folds).toHaveBeenCalledTimes(1);
  });

  it('a payment verification, which also marks its address used, makes one read and one fold of the escrow', async () => {
    const { admin, buyer } = await openMarket(t, [freshAddress()]);
    const created = await t.app.request(
      '/api/escrows',
      json(
        { product_service: 'Lens', description: 'A lens', amount_usd: '500.00', seller_email: 'sam@example.com' },
        buyer.token,
      ),
    );
    const { id } = (await created.json()) as { id: string };
    expect((await t.app.request(`/api/escrows/${id}/mark-paid`, form({ notes: 'sent' }, buyer.token))).status).toBe(
      200,
    );
    const { seen, plugin } = streamReads(id);
    const app = countedApp(plugin);
    const folds = vi.spyOn(escrowAggregate, 'initial');

    const res = await app.request(
      `/api/admin/escrows/${id}/verify-payment`,
      form({ verified: 'true', notes: 'seen' }, admin.token),
    );

    expect(res.status).toBe(200);
    expect(((await res.json()) as { status: string }).status).toBe('funded');
    expect(seen.count).toBe(1);
    expect(folds).toHaveBeenCalledTimes(1);
  });
});

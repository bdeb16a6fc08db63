import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chainHash, envelopeOf } from '../../domain/chain.ts';
import type { StoredEvent } from '../../domain/stored-event.ts';
import { readStream } from '../event-store/read.ts';
import { bearer, form, signedInAdmin } from '../testing/accounts.ts';
import { openFundedDeal } from '../testing/market.ts';
import { openTestApp, type TestApp } from '../testing/test-app.ts';
import { tamperWith } from '../testing/tamper.ts';

/**
 * The money guard against the outside probe's two attacks on one escrow, each done by someone with the database
 * owner's rights (who can switch the append-only trigger off, as these tests do): rewrite the seller's
 * PayoutAddressSet to another address with its own hash recomputed from its stored prev_hash and the read model
 * changed to match; delete the escrow's PartyBound. Releases race each other (on PostgreSQL they really run at once).
 */
let t: TestApp;
beforeAll(async () => {
  t = await openTestApp();
});
beforeEach(async () => {
  await t.database.reset();
  t.deps.chainWatch?.forget();
});
afterAll(async () => t.close());

const PAYOUT = '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa';
const ATTACKER = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const mailsTo = (to: string) =>
  t.database.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', to).orderBy('id').execute();
const released = () => t.database.db.selectFrom('events').select('data').where('type', '=', 'EscrowReleased').execute();
const detail = async (res: Response) => ((await res.json()) as { detail: string }).detail;

/** A funded deal between ann (buyer, her side bound to her account) and sam (seller, payout address set), two admins. */
async function fundedDeal() {
  const deal = await openFundedDeal(t, { payout: PAYOUT });
  return { ...deal, second: await signedInAdmin(t, 'second') };
}

const streamOf = async (id: string) => (await readStream(t.database.db, `escrow:${id}`)).events;

/** Attack one: the event rewritten, its own hash recomputed from its stored prev_hash, the row changed to match. */
async function rewritePayoutAddress(id: string) {
  const event = (await streamOf(id)).find((e) => e.type === 'PayoutAddressSet')!;
  const data = { ...(event.data as Record<string, unknown>), address: ATTACKER };
  const hash = chainHash(event.prev_hash, envelopeOf({ ...event, data } as StoredEvent));
  await tamperWith(t.database.db, async (trx) => {
    await sql`UPDATE events SET data = ${JSON.stringify(data)}::jsonb, hash = ${hash} WHERE position = ${event.position}`.execute(
      trx,
    );
    await trx.updateTable('escrows').set({ payout_address: ATTACKER }).where('id', '=', id).execute();
  });
  return event;
}

/** Two admins release at once, both to the attacker's address as the admin screen now shows it. */
async function concurrentReleases(deal: Awaited<ReturnType<typeof fundedDeal>>, to: string) {
  return Promise.all(
    [deal.admin, deal.second].map((a) =>
      t.app.request(`/api/admin/escrows/${deal.id}/release`, form({ notes: '', expected_address: to }, a.token)),
    ),
  );
}

describe('the money guard checks the whole stream inside the money action', () => {
  it('refuses a release after an event was rewritten with its own hash recomputed and the row changed to match', async () => {
    const deal = await fundedDeal();
    const rewritten = await rewritePayoutAddress(deal.id);
    const answers = await concurrentReleases(deal, ATTACKER);
    expect(answers.map((a) => a.status)).toEqual([503, 503]);
    expect(await detail(answers[0]!)).toMatch(/^Money actions are stopped: /);
    expect(await released()).toHaveLength(0);
    // The chain is marked broken: health, readiness's body and the admin chain view say so, and every money action
    // stops; the server stays ready (it can serve), so the console stays reachable.
    const ready = await t.app.request('/api/ready');
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as { chain: string }).chain).toBe('broken');
    expect(((await (await t.app.request('/api/health')).json()) as { chain: string }).chain).toBe('broken');
    const chain = (await (await t.app.request('/api/admin/chain', bearer(deal.admin.token))).json()) as Record<
      string,
      unknown
    >;
    expect(JSON.stringify(chain)).toContain('broken');
    expect(t.deps.chainWatch!.state().broken).toMatchObject({ position: rewritten.position + 1 });
    const refund = await t.app.request(`/api/admin/escrows/${deal.id}/refund`, form({ notes: '' }, deal.admin.token));
    expect(refund.status).toBe(503);
    expect(await detail(refund)).toMatch(/the event log failed its integrity check/);
    // The admins are mailed once, whatever the number of refused actions.
    const alerts = (await mailsTo('root@example.com')).filter((m) => m.subject.startsWith('Money actions stopped'));
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.body).toContain(deal.id);
    expect(t.logLines.some((l) => l.includes('tampered'))).toBe(true);
  });

  it("refuses a release after the escrow's PartyBound event was deleted", async () => {
    const deal = await fundedDeal();
    const bound = (await streamOf(deal.id)).find((e) => e.type === 'PartyBound');
    expect(bound).toBeDefined();
    await tamperWith(t.database.db, (trx) => sql`DELETE FROM events WHERE position = ${bound!.position}`.execute(trx));
    const answers = await concurrentReleases(deal, PAYOUT);
    expect(answers.map((a) => a.status)).toEqual([503, 503]);
    expect(await detail(answers[0]!)).toMatch(/removed|gone/);
    expect(await released()).toHaveLength(0);
    expect(t.deps.chainWatch!.state().status).toBe('broken');
    expect(
      (await mailsTo('root@example.com')).filter((m) => m.subject.startsWith('Money actions stopped')),
    ).toHaveLength(1);
  });

  it('a rewrite racing a release: money never goes to the rewritten address, and what follows is refused', async () => {
    for (let round = 0; round < 3; round++) {
      await t.database.reset();
      t.deps.chainWatch?.forget();
      const deal = await fundedDeal();
      const [, first, second] = await Promise.all([
        rewritePayoutAddress(deal.id),
        t.app.request(
          `/api/admin/escrows/${deal.id}/release`,
          form({ notes: '', expected_address: ATTACKER }, deal.admin.token),
        ),
        t.app.request(`/api/admin/escrows/${deal.id}/release`, form({ notes: '' }, deal.second.token)),
      ]);
      const paid = await released();
      for (const r of paid)
        expect((r.data as { destinations: { address: string }[] }).destinations[0]!.address).toBe(PAYOUT);
      expect([first.status, second.status].filter((s) => s === 200)).toHaveLength(paid.length);
      expect(first.status).not.toBe(200); // the attacker's address was never the one in the log
      const after = await t.app.request(`/api/admin/escrows/${deal.id}/refund`, form({ notes: '' }, deal.admin.token));
      expect(after.status).toBe(503);
    }
  });

  it('legitimate concurrent actions are not mistaken for tampering', async () => {
    const deal = await fundedDeal();
    const answers = await concurrentReleases(deal, PAYOUT);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(await released()).toHaveLength(1);
    expect(t.deps.chainWatch!.state().status).not.toBe('broken');
    expect(
      (await mailsTo('root@example.com')).filter((m) => m.subject.startsWith('Money actions stopped')),
    ).toHaveLength(0);
  });
});

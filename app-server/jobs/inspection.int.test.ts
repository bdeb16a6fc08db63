import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Escrow } from '../../contract/escrows.ts';
import { bearer, form, json, lastMailTo, signedInAdmin, verifiedUser } from '../testing/accounts.ts';
import { openTestApp, type TestApp } from '../testing/test-app.ts';
import { runInspectionClock } from './inspection.ts';

let t: TestApp;
beforeAll(async () => {
  t = await openTestApp();
});
beforeEach(async () => t.database.reset());
afterAll(async () => t.close());

const DAY = 86_400_000;
const detail = async (res: Response) => ((await res.json()) as { detail: string }).detail;

/** A seller-created deal the buyer agreed to, paid and verified, shipped and received: its inspection running. */
async function receivedDeal() {
  const admin = await signedInAdmin(t);
  await t.app.request('/api/admin/btc-rate', form({ btc_usd_rate: '50000' }, admin.token, 'PUT'));
  await t.app.request(
    '/api/admin/addresses',
    form({ address_string: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4' }, admin.token),
  );
  const seller = await verifiedUser(t, 'sam', 'seller');
  const buyer = await verifiedUser(t, 'ann', 'buyer');
  const created = await t.app.request(
    '/api/escrows',
    json(
      {
        product_service: 'Lamp',
        description: 'Desk lamp',
        amount_usd: 50,
        inspection_days: 2,
        buyer_email: 'ann@example.com',
      },
      seller.token,
    ),
  );
  const escrow = (await created.json()) as Escrow;
  const post = (path: string, token: string, body?: unknown) =>
    t.app.request(`/api/escrows/${escrow.id}/${path}`, body === undefined ? bearer(token, 'POST') : json(body, token));
  const agreed = (await (await post('agree', buyer.token)).json()) as Escrow;
  expect(agreed.agreed_at).not.toBeNull();
  expect(agreed.allowed_actions).toContain('request_payment');
  expect((await post('request-payment', buyer.token)).status).toBe(200);
  expect(
    (await t.app.request(`/api/escrows/${escrow.id}/mark-paid`, form({ notes: 'sent' }, buyer.token))).status,
  ).toBe(200);
  expect(
    (
      await t.app.request(
        `/api/admin/escrows/${escrow.id}/verify-payment`,
        form({ verified: 'true', notes: '' }, admin.token),
      )
    ).status,
  ).toBe(200);
  const badShip = await post('ship', seller.token, { method: 'shipping' });
  expect([badShip.status, await detail(badShip)]).toEqual([422, expect.stringContaining('carrier')]);
  const shipped = (await (
    await post('ship', seller.token, { method: 'shipping', carrier: 'DHL', tracking: 'JD1' })
  ).json()) as Escrow;
  expect(shipped.shipment).toEqual({ method: 'shipping', carrier: 'DHL', tracking: 'JD1', note: null });
  expect((await lastMailTo(t, 'ann@example.com')).subject).toMatch(/^Shipped/);
  const received = (await (await post('receive', buyer.token)).json()) as Escrow;
  expect(received.allowed_actions).toEqual(expect.arrayContaining(['confirm_receipt', 'open_dispute']));
  expect(Date.parse(received.inspection_ends_at!) - Date.parse(received.received_at!)).toBe(2 * DAY);
  await post('payout-address', seller.token, { address: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2' });
  return { admin, buyer, seller, escrow: received };
}

describe('the inspection clock', () => {
  it('reminds the buyer half-way through a short period, then accepts for the system at its end', async () => {
    const { admin, buyer, escrow } = await receivedDeal();
    const ends = Date.parse(escrow.inspection_ends_at!);
    expect(await runInspectionClock(t.deps, new Date(ends - DAY - 60_000))).toBe(0);
    expect((await lastMailTo(t, 'ann@example.com')).subject).not.toMatch(/Inspection ends soon/);
    expect(await runInspectionClock(t.deps, new Date(ends - DAY + 60_000))).toBe(0);
    expect((await lastMailTo(t, 'ann@example.com')).subject).toMatch(/^Inspection ends soon/);
    expect(await runInspectionClock(t.deps, new Date(ends + 1_000))).toBe(1);
    const after = (await (await t.app.request(`/api/escrows/${escrow.id}`, bearer(buyer.token))).json()) as Escrow;
    expect(after.buyer_confirmed_at).not.toBeNull();
    expect(after.allowed_actions).not.toContain('open_dispute');
    const history = (await (
      await t.app.request(`/api/admin/escrows/${escrow.id}/history`, bearer(admin.token))
    ).json()) as { type: string; actor: string }[];
    expect(history.at(-1)).toMatchObject({ type: 'ReceiptConfirmed', actor: 'system' });
    const accepted = await lastMailTo(t, 'sam@example.com');
    expect(accepted.subject).toMatch(/^Accepted/);
    expect(accepted.body).toContain('ended with no dispute, so the deal is accepted');
    const page = (await (await t.app.request('/api/admin/escrows?ready=true', bearer(admin.token))).json()) as {
      ready_count: number;
      escrows: Escrow[];
    };
    expect(page.ready_count).toBe(1);
    expect(page.escrows.map((e) => e.id)).toEqual([escrow.id]);
    expect((await lastMailTo(t, 'root@example.com')).subject).toMatch(/^Ready to release/);
    expect(await runInspectionClock(t.deps, new Date(ends + 2_000))).toBe(0);
  });

  it('reminds again before the end of a period both parties extended, and accepts only then', async () => {
    const { buyer, seller, escrow } = await receivedDeal();
    const ends = Date.parse(escrow.inspection_ends_at!);
    await runInspectionClock(t.deps, new Date(ends - DAY + 60_000));
    const reminders = async () =>
      (
        await t.database.db
          .selectFrom('mail_outbox')
          .select('subject')
          .where('to_address', '=', 'ann@example.com')
          .execute()
      ).filter((m) => m.subject.startsWith('Inspection ends soon')).length;
    expect(await reminders()).toBe(1);
    const proposed = (await (
      await t.app.request(
        `/api/escrows/${escrow.id}/proposals`,
        json({ kind: 'extend_inspection', days: 3 }, buyer.token),
      )
    ).json()) as Escrow;
    const accepted = (await (
      await t.app.request(
        `/api/escrows/${escrow.id}/proposals/${proposed.proposals[0]!.id}/accept`,
        bearer(seller.token, 'POST'),
      )
    ).json()) as Escrow;
    expect(Date.parse(accepted.inspection_ends_at!)).toBe(ends + 3 * DAY);
    expect(await runInspectionClock(t.deps, new Date(ends + 1_000))).toBe(0);
    expect(await reminders()).toBe(1);
    await runInspectionClock(t.deps, new Date(ends + 2 * DAY + 60_000));
    expect(await reminders()).toBe(2);
    expect(await runInspectionClock(t.deps, new Date(ends + 3 * DAY + 1_000))).toBe(1);
  });

  it('mails the admins once when a replaced payout address stops being held after the deal was accepted', async () => {
    const { buyer, seller, escrow } = await receivedDeal();
    const replaced = await t.app.request(
      `/api/escrows/${escrow.id}/payout-address`,
      json({ address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' }, seller.token),
    );
    const heldUntil = Date.parse(((await replaced.json()) as Escrow).payout_address_held_until!);
    expect((await t.app.request(`/api/escrows/${escrow.id}/confirm-receipt`, bearer(buyer.token, 'POST'))).status).toBe(
      200,
    );
    const readyMails = async () =>
      await t.database.db
        .selectFrom('mail_outbox')
        .select(['to_address', 'body'])
        .where('subject', 'like', 'Ready to release%')
        .execute();
    await runInspectionClock(t.deps, new Date(heldUntil - 60_000));
    expect(await readyMails()).toEqual([]);
    await runInspectionClock(t.deps, new Date(heldUntil + 1_000));
    await runInspectionClock(t.deps, new Date(heldUntil + 2_000));
    const mails = await readyMails();
    expect(mails.map((m) => m.to_address)).toEqual(['root@example.com']);
    expect(mails[0]!.body).toContain('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq');
  });

  it('leaves a disputed period alone', async () => {
    const { buyer, escrow } = await receivedDeal();
    expect(
      (await t.app.request(`/api/escrows/${escrow.id}/open-dispute`, json({ reason: 'Broken' }, buyer.token))).status,
    ).toBe(200);
    expect(await runInspectionClock(t.deps, new Date(Date.parse(escrow.inspection_ends_at!) + 1_000))).toBe(0);
  });
});

describe('the declined deal', () => {
  it('cancels an unpaid escrow and gives its address back to the pool', async () => {
    const admin = await signedInAdmin(t);
    await t.app.request('/api/admin/btc-rate', form({ btc_usd_rate: '50000' }, admin.token, 'PUT'));
    await t.app.request(
      '/api/admin/addresses',
      form({ address_string: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4' }, admin.token),
    );
    const buyer = await verifiedUser(t, 'ann', 'buyer');
    const seller = await verifiedUser(t, 'sam', 'seller');
    const escrow = (await (
      await t.app.request(
        '/api/escrows',
        json(
          { product_service: 'Lamp', description: 'Desk lamp', amount_usd: 50, seller_email: 'sam@example.com' },
          buyer.token,
        ),
      )
    ).json()) as Escrow;
    expect(escrow.assigned_address).not.toBeNull();
    const empty = await t.app.request(`/api/escrows/${escrow.id}/decline`, json({ reason: ' ' }, seller.token));
    expect([empty.status, await detail(empty)]).toEqual([422, 'reason is required']);
    const declined = (await (
      await t.app.request(`/api/escrows/${escrow.id}/decline`, json({ reason: 'Sold' }, seller.token))
    ).json()) as Escrow;
    expect([declined.status, declined.decline_reason, declined.allowed_actions]).toEqual(['cancelled', 'Sold', []]);
    const address = await t.database.db.selectFrom('addresses').select('status').executeTakeFirstOrThrow();
    expect(address.status).toBe('available');
    expect((await lastMailTo(t, 'ann@example.com')).subject).toMatch(/^Terms declined/);
  });
});

describe('the browser suite clock (libfaketime)', () => {
  const lib = '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1';
  it.skipIf(!existsSync(lib))('moves Date.now() of a running Node process when its offset file changes', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'clock-')), 'faketime.rc');
    writeFileSync(file, '+0\n');
    const script = `const fs=require('fs');const a=Date.now();fs.writeFileSync(${JSON.stringify(file)},'+3d\\n');
      setTimeout(()=>console.log(Date.now()-a),50);`;
    const run = spawnSync(process.execPath, ['-e', script], {
      env: {
        ...process.env,
        LD_PRELOAD: lib,
        FAKETIME_TIMESTAMP_FILE: file,
        FAKETIME_NO_CACHE: '1',
        FAKETIME_DONT_FAKE_MONOTONIC: '1',
      },
      encoding: 'utf8',
    });
    const moved = Number(run.stdout.trim());
    expect(moved).toBeGreaterThanOrEqual(3 * DAY);
    expect(moved).toBeLessThan(3 * DAY + 60_000);
  });
});

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventTypes } from '../../../../domain/events.ts';
import { bearer, form, json, signedInAdmin, signedInUser } from '../../../testing/accounts.ts';
import { FIXTURE_ADMIN, fixtureId, writeEveryEventType } from '../../../testing/every-event-type.ts';
import { openTestApp, type TestApp } from '../../../testing/test-app.ts';

let t: TestApp;
let admin: { id: string; token: string };
beforeAll(async () => {
  t = await openTestApp();
  await writeEveryEventType({ db: t.database.db, store: t.deps.store });
  admin = await signedInAdmin(t, 'auditor');
});
afterAll(async () => t.close());

type Entry = {
  id: number;
  action_type: string;
  actor: string;
  actor_user_id: string | null;
  actor_username: string | null;
  summary: string;
  object_type: string;
  object_id: string;
  object_name: string | null;
};
const USER_ID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const get = async <T>(path: string) => {
  const res = await t.app.request(path, bearer(admin.token));
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
};

describe('audit log', () => {
  it('has an entry for every event type, newest first, with its actor and a summary', async () => {
    const entries = await get<Entry[]>('/api/admin/audit-logs?limit=500');
    expect(new Set(entries.map((e) => e.action_type))).toEqual(new Set(eventTypes));
    expect(entries.map((e) => e.id)).toEqual([...entries.map((e) => e.id)].sort((a, b) => b - a));
    const expired = entries.find((e) => e.action_type === 'EscrowExpired')!;
    expect(expired).toMatchObject({ actor: 'system', actor_user_id: null });
    const released = entries.find((e) => e.action_type === 'EscrowReleased')!;
    expect(released).toMatchObject({ actor_user_id: FIXTURE_ADMIN, actor_username: 'admin' });
    expect(released.summary).toMatch(/^released escrow 00000000 \(0\.\d{8} BTC to the seller at bc1qseller\)$/);
  });

  it('names users by username in its sentences and as the object, never by id', async () => {
    const entries = await get<Entry[]>('/api/admin/audit-logs?limit=500');
    expect(entries.filter((e) => USER_ID.test(e.summary))).toEqual([]);
    const bound = entries.find((e) => e.action_type === 'PartyBound')!;
    // The fixture binds an id no user has: it is named by its first eight characters.
    expect(bound.summary).toMatch(/^made user [0-9a-f]{8} the (buyer|seller) of escrow [0-9a-f]{8}$/);
    const ofAuditor = entries.filter((e) => e.object_type === 'user' && e.object_id === admin.id);
    expect(ofAuditor.length).toBeGreaterThan(0);
    expect(ofAuditor.every((e) => e.object_name === 'auditor')).toBe(true);
    expect(ofAuditor.filter((e) => e.action_type !== 'UserRegistered').map((e) => e.summary)).toContainEqual(
      expect.stringMatching(/auditor/),
    );
  });

  it('filters by action, object and actor, and pages with before', async () => {
    const refunds = await get<Entry[]>('/api/admin/audit-logs?action_type=EscrowRefunded');
    expect(refunds).toHaveLength(1);
    const ofEscrow = await get<Entry[]>(`/api/admin/audit-logs?object_type=escrow&object_id=${fixtureId(104)}`);
    expect(ofEscrow.map((e) => e.action_type)).toEqual(['EscrowCancelled', 'EscrowCreated']);
    const bySystem = await get<Entry[]>('/api/admin/audit-logs?actor=system');
    expect(bySystem.length).toBeGreaterThan(0);
    expect(bySystem.every((e) => e.actor === 'system')).toBe(true);
    // The actor filter takes a username as well as an id.
    const byName = await get<Entry[]>('/api/admin/audit-logs?actor=admin&limit=500');
    expect(byName.length).toBeGreaterThan(0);
    expect(byName.every((e) => e.actor === FIXTURE_ADMIN)).toBe(true);
    expect(byName).toEqual(await get<Entry[]>(`/api/admin/audit-logs?actor=${FIXTURE_ADMIN}&limit=500`));
    expect(await get<Entry[]>('/api/admin/audit-logs?actor=nobody-by-this-name')).toEqual([]);
    const first = await get<Entry[]>('/api/admin/audit-logs?limit=5');
    const next = await get<Entry[]>(`/api/admin/audit-logs?limit=5&before=${first.at(-1)!.id}`);
    expect(next[0]!.id).toBe(first.at(-1)!.id - 1);
  });
});

describe('event log, history, replay, chain, export', () => {
  it('pages the raw log by position and filters by stream', async () => {
    const page = await get<{ position: number }[]>('/api/admin/events?after=3&limit=4');
    expect(page.map((e) => e.position)).toEqual([4, 5, 6, 7]);
    const stream = await get<{ stream_id: string }[]>(`/api/admin/events?stream_id=escrow:${fixtureId(104)}`);
    expect(stream.map((e) => e.stream_id)).toEqual([`escrow:${fixtureId(104)}`, `escrow:${fixtureId(104)}`]);
  });

  it('tells what an escrow looked like after each event', async () => {
    const history = await get<{ type: string; status_after: string }[]>(`/api/admin/escrows/${fixtureId(101)}/history`);
    expect(history.map((h) => h.status_after)).toEqual([
      'pending_payment',
      'pending_payment',
      'pending_payment',
      'pending_payment',
      'pending_payment',
      'funded',
      'funded',
      'funded',
      // The deal's steps keep the escrow funded: agreed, shipped, received, accepted.
      'funded',
      'funded',
      'funded',
      'funded',
      'frozen',
      'funded',
      'released',
      'released',
    ]);
    // Each event in words, the acting admin by username.
    const told = await get<{ type: string; summary: string; actor: string; actor_username: string | null }[]>(
      `/api/admin/escrows/${fixtureId(101)}/history`,
    );
    expect(told.every((h) => h.summary.length > 0 && !USER_ID.test(h.summary))).toBe(true);
    expect(told.find((h) => h.type === 'EscrowReleased')).toMatchObject({
      actor: FIXTURE_ADMIN,
      actor_username: 'admin',
    });
    expect(told.find((h) => h.type === 'EscrowReleased')!.summary).toMatch(/^released escrow [0-9a-f]{8} \(/);
    expect((await t.app.request(`/api/admin/escrows/${fixtureId(999)}/history`, bearer(admin.token))).status).toBe(404);
  });

  it('replays to a match and verifies the chain', async () => {
    const replay = await t.app.request('/api/admin/replay', bearer(admin.token, 'POST'));
    expect(((await replay.json()) as { match: boolean }).match).toBe(true);
    const chain = await get<{ ok: boolean; head: { position: number } }>('/api/admin/chain');
    expect(chain.ok).toBe(true);
  });

  it('swaps the rebuilt read models in only when asked (swap=true as JSON or form)', async () => {
    type Report = {
      match: boolean;
      tables: { table: string; match: boolean }[];
      swapped?: { table: string; deleted: number; inserted: number }[];
    };
    const replay = async (init: RequestInit) => {
      const res = await t.app.request('/api/admin/replay', init);
      expect(res.status).toBe(200);
      return (await res.json()) as Report;
    };
    const statusOf = async () =>
      (
        await t.database.db
          .selectFrom('escrows')
          .select('status')
          .where('id', '=', fixtureId(101))
          .executeTakeFirstOrThrow()
      ).status;
    await sql`UPDATE escrows SET status = 'refunded' WHERE id = ${fixtureId(101)}`.execute(t.database.db);

    for (const init of [
      bearer(admin.token, 'POST'),
      json({ swap: false }, admin.token),
      form({ swap: 'false' }, admin.token),
    ]) {
      const dryRun = await replay(init);
      expect(dryRun.match).toBe(false);
      expect(dryRun.tables.filter((x) => !x.match).map((x) => x.table)).toEqual(['escrows']);
      expect(dryRun.swapped).toBeUndefined();
      expect(await statusOf()).toBe('refunded');
    }

    const swapped = await replay(json({ swap: true }, admin.token));
    expect(swapped.match).toBe(false);
    // Only the row that differs is rewritten (in short locked steps, so appends wait for a step, not the rebuild).
    expect(swapped.swapped!.find((x) => x.table === 'escrows')).toEqual({ table: 'escrows', deleted: 1, inserted: 1 });
    expect(await statusOf()).toBe('released');
    expect((await replay(bearer(admin.token, 'POST'))).match).toBe(true);

    // As a form field too, and a swap of equal tables changes nothing.
    const again = await replay(form({ swap: 'true' }, admin.token));
    expect(again.match).toBe(true);
    expect(again.swapped!.length).toBe(again.tables.length);
    expect((await replay(bearer(admin.token, 'POST'))).match).toBe(true);

    expect((await t.app.request('/api/admin/replay', json({ swap: 'maybe' }, admin.token))).status).toBe(422);
    const buyer = await signedInUser(t, 'swapper');
    expect((await t.app.request('/api/admin/replay', json({ swap: true }))).status).toBe(401);
    expect((await t.app.request('/api/admin/replay', json({ swap: true }, buyer.token))).status).toBe(403);
  });

  it('streams the export as NDJSON', async () => {
    const res = await t.app.request('/api/admin/events/export?from=1', bearer(admin.token));
    expect(res.headers.get('content-type')).toContain('application/x-ndjson');
    const lines = (await res.text()).trimEnd().split('\n');
    const head = await get<{ head: { position: number } }>('/api/admin/chain');
    expect(lines).toHaveLength(head.head.position + 1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ format: 'escrow-events/1', from: 1 });
  });

  it('is for admins only', async () => {
    const buyer = await signedInUser(t, 'nosy');
    for (const path of ['/api/admin/audit-logs', '/api/admin/events', '/api/admin/chain', '/api/admin/events/export']) {
      expect((await t.app.request(path)).status).toBe(401);
      expect((await t.app.request(path, bearer(buyer.token))).status).toBe(403);
    }
  });
});

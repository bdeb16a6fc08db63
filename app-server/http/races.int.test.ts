import { bech32 } from '@scure/base';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sessionUser } from '../auth/sessions.ts';
import { bearer, form, json, PASSWORD, registerUser } from '../testing/accounts.ts';
import { openMarket } from '../testing/market.ts';
import { openTestApp, type TestApp } from '../testing/test-app.ts';
import { describeOnPostgres } from '../testing/postgres-only.ts';

/**
 * Races through the whole HTTP stack: many requests that compete for one thing are fired at once, exactly one may
 * win, the others are refused with 409 and a reason, and the event log must still make sense afterwards. Each race
 * is run for several rounds to give the interleavings a chance. PGlite has a single connection, so requests there
 * run one after the other and nothing races: the suite runs on PostgreSQL only.
 */
const ROUNDS = 5;
/** Sign-ins race a suspension in a narrow window: more rounds. */
const SUSPEND_ROUNDS = 10;

type Answer = {
  kind: string;
  status: number;
  detail: string | undefined;
  body: Record<string, unknown>;
  replayed: boolean;
};
type Party = { id: string; token: string };
/** One request of a race: what it is, when to send it (ms after the start), how. */
type Shot = { kind: string; delayMs?: number; send: () => Response | Promise<Response> };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Fisher-Yates: the kinds of competing requests start in a different order every round. */
function shuffled<T>(items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Starts every request (after its delay, if any) before awaiting any, then reads every answer. */
async function fire(shots: readonly Shot[]): Promise<Answer[]> {
  const responses = await Promise.all(
    shots.map(async (shot) => (shot.delayMs ? sleep(shot.delayMs).then(shot.send) : shot.send())),
  );
  return Promise.all(
    responses.map(async (res, i) => {
      const body = (await res.json()) as Record<string, unknown>;
      const detail = typeof body.detail === 'string' ? body.detail : undefined;
      return {
        kind: shots[i]!.kind,
        status: res.status,
        detail,
        body,
        replayed: res.headers.get('idempotent-replayed') === 'true',
      };
    }),
  );
}

const summary = (answers: readonly Answer[]) =>
  answers.map((a) => `${a.kind}: ${a.status} ${a.detail ?? ''}`.trim()).join('\n');
const isSuccess = (a: Answer) => a.status >= 200 && a.status < 300;

/** Exactly one answer is a success; every other one is a 409 that says why. */
function expectOneWinner(answers: readonly Answer[], what: string) {
  const winners = answers.filter(isSuccess);
  expect(winners.length, `${what}: exactly one success among\n${summary(answers)}`).toBe(1);
  for (const loser of answers.filter((a) => !isSuccess(a))) {
    expect(loser.status, `${what}: a loser answers 409, not\n${summary([loser])}`).toBe(409);
    expect(loser.detail, `${what}: a 409 says why`).toMatch(/\w/);
  }
  return winners[0]!;
}

let addressCount = 0;
/** A fresh valid mainnet P2WPKH address: bech32 of a 20-byte program no other call used. */
function freshAddress(): string {
  addressCount += 1;
  const program = new Uint8Array(20);
  new DataView(program.buffer).setUint32(0, addressCount);
  program.fill(0x5a, 4);
  return bech32.encode('bc', [0, ...bech32.toWords(program)]);
}

/** The log checks every race ends with, over the whole log so far. */
type LoggedEvent = {
  position: number;
  stream_id: string;
  stream_version: number;
  type: string;
  data: Record<string, unknown>;
};

async function readLog(t: TestApp): Promise<LoggedEvent[]> {
  const { rows } =
    await sql<LoggedEvent>`SELECT position, stream_id, stream_version, type, data FROM events ORDER BY position`.execute(
      t.database.db,
    );
  return rows.map((r) => ({
    ...r,
    position: Number(r.position),
    stream_version: Number(r.stream_version),
    data: (typeof r.data === 'string' ? JSON.parse(r.data) : r.data) as Record<string, unknown>,
  }));
}

const MONEY_EVENTS = new Set(['EscrowReleased', 'EscrowRefunded']);
const ENDED_UNPAID = new Set(['EscrowCancelled', 'EscrowExpired']);
const MODERATION = new Set(['ReviewApproved', 'ReviewRejected']);

interface LogFacts {
  events: number;
  moneyMoves: number;
  suspensions: Map<string, number>;
}

/**
 * - positions are 1..n without a gap, and each stream's versions are 1..k in position order;
 * - an escrow moves money at most once (released, refunded, or a dispute resolved with money), never both
 *   released and refunded, only after a verified payment, and its payout adds up: seller + buyer + fee = amount;
 * - an escrow gets at most one payment address, and no address is held by two escrows that are still live (not
 *   cancelled or expired); the address streams agree with the escrow streams;
 * - a review is approved or rejected at most once (the races never reopen one);
 * - a user is suspended at most once (the races never lift one).
 */
async function checkLog(t: TestApp): Promise<LogFacts> {
  const log = await readLog(t);
  log.forEach((e, i) => expect(e.position, 'positions are gapless').toBe(i + 1));
  const versions = new Map<string, number>();
  for (const e of log) {
    const next = (versions.get(e.stream_id) ?? 0) + 1;
    expect(e.stream_version, `${e.stream_id} versions follow one another`).toBe(next);
    versions.set(e.stream_id, next);
  }

  const byStream = new Map<string, LoggedEvent[]>();
  for (const e of log) byStream.set(e.stream_id, [...(byStream.get(e.stream_id) ?? []), e]);

  let moneyMoves = 0;
  const liveHolders = new Map<string, string[]>();
  const suspensions = new Map<string, number>();
  for (const [stream, events] of byStream) {
    const types = events.map((e) => e.type);
    if (stream.startsWith('escrow:')) {
      const created = events.find((e) => e.type === 'EscrowCreated');
      expect(created, `${stream} starts with EscrowCreated`).toBeDefined();
      const moves = events.filter(
        (e) => MONEY_EVENTS.has(e.type) || (e.type === 'DisputeResolved' && e.data.resolution !== null),
      );
      expect(moves.length, `${stream} moves money at most once: ${types.join(', ')}`).toBeLessThanOrEqual(1);
      expect(
        types.includes('EscrowReleased') && types.includes('EscrowRefunded'),
        `${stream} is never both released and refunded`,
      ).toBe(false);
      for (const move of moves) {
        moneyMoves += 1;
        expect(
          types.slice(0, types.indexOf(move.type)),
          `${stream} moved money only after a verified payment`,
        ).toContain('PaymentVerified');
        const paid = ['seller_sats', 'buyer_sats', 'fee_sats'].reduce((sum, k) => sum + Number(move.data[k] ?? 0), 0);
        expect(paid, `${stream}: seller + buyer + fee = amount_sats`).toBe(Number(created!.data.amount_sats));
      }
      const assigned = events.filter((e) => e.type === 'PaymentAddressAssigned');
      expect(assigned.length, `${stream} gets at most one payment address`).toBeLessThanOrEqual(1);
      const addressId = assigned[0]?.data.address_id as string | undefined;
      if (addressId && !types.some((ty) => ENDED_UNPAID.has(ty))) {
        liveHolders.set(addressId, [...(liveHolders.get(addressId) ?? []), stream]);
      }
      if (addressId) {
        const addressTypes = (byStream.get(`address:${addressId}`) ?? [])
          .filter((e) => e.data.escrow_id === stream.slice('escrow:'.length))
          .map((e) => e.type);
        expect(addressTypes[0], `address:${addressId} records that ${stream} took it`).toBe('AddressAssigned');
      }
    }
    if (stream.startsWith('address:')) {
      // Taken, then freed or used, and only taken again once freed.
      let holder: string | null = null;
      let used = false;
      for (const e of events) {
        const escrow = e.data.escrow_id as string | undefined;
        if (e.type === 'AddressAssigned') {
          expect(
            holder === null && !used,
            `${stream} is taken only while free (by ${escrow}; held by ${holder}, used ${used})`,
          ).toBe(true);
          holder = escrow!;
        }
        if (e.type === 'AddressFreed' || e.type === 'AddressUsed')
          expect(escrow, `${stream} is freed or used by its holder`).toBe(holder);
        if (e.type === 'AddressFreed') holder = null;
        if (e.type === 'AddressUsed') used = true;
      }
    }
    if (stream.startsWith('review:')) {
      expect(
        types.filter((ty) => MODERATION.has(ty)).length,
        `${stream} is approved or rejected at most once: ${types.join(', ')}`,
      ).toBeLessThanOrEqual(1);
    }
    if (stream.startsWith('user:')) {
      const count = types.filter((ty) => ty === 'UserSuspended').length;
      expect(count, `${stream} is suspended at most once`).toBeLessThanOrEqual(1);
      suspensions.set(stream.slice('user:'.length), count);
    }
  }
  for (const [addressId, holders] of liveHolders) {
    expect(holders, `address ${addressId} is held by at most one live escrow`).toHaveLength(1);
  }
  return { events: log.length, moneyMoves, suspensions };
}

describeOnPostgres('races on PostgreSQL: exactly one winner, and a log that still adds up', () => {
  let t: TestApp;
  let admin: Party;
  let buyer: Party;
  let seller: Party;

  beforeAll(async () => {
    t = await openTestApp({
      RATE_LIMIT_LOGIN: '100000',
      RATE_LIMIT_REGISTER: '100000',
      RATE_LIMIT_REVIEWS: '100000',
      RATE_LIMIT_ESCROWS: '100000',
      MAX_UNPAID_ESCROWS: '100000',
    });
    // Ann's e-mail is confirmed too (openMarket does it), so escrows sam opens with her as buyer are hers.
    ({ admin, buyer, seller } = await openMarket(t));
  });
  afterAll(async () => t?.close());

  const addToPool = async (count: number) => {
    for (let i = 0; i < count; i++) {
      expect(
        (await t.app.request('/api/admin/addresses', form({ address_string: freshAddress() }, admin.token))).status,
      ).toBe(201);
    }
  };
  /** An escrow sam opened for ann: it waits for ann to ask for a payment address. */
  const sellerOpened = async (what: string) => {
    const res = await t.app.request(
      '/api/escrows',
      json(
        { product_service: what, description: 'Raced', amount_usd: '250.00', buyer_email: 'ann@example.com' },
        seller.token,
      ),
    );
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: string }).id;
  };
  /** A funded escrow with the seller's payout and the buyer's refund address set: both release and refund are open. */
  const fundedDeal = async (what: string) => {
    await addToPool(1);
    const res = await t.app.request(
      '/api/escrows',
      json(
        { product_service: what, description: 'Raced', amount_usd: '1234.56', seller_email: 'sam@example.com' },
        buyer.token,
      ),
    );
    const created = (await res.json()) as { id: string; assigned_address: string | null };
    expect([res.status, created.assigned_address]).toEqual([201, expect.any(String)]);
    const id = created.id;
    expect((await t.app.request(`/api/escrows/${id}/mark-paid`, form({ notes: 'sent' }, buyer.token))).status).toBe(
      200,
    );
    expect(
      (
        await t.app.request(
          `/api/admin/escrows/${id}/verify-payment`,
          form({ verified: 'true', notes: 'seen', txid: 'b'.repeat(64) }, admin.token),
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await t.app.request(
          `/api/escrows/${id}/payout-address`,
          json({ address: '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa' }, seller.token),
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await t.app.request(
          `/api/escrows/${id}/payout-address`,
          json({ address: '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy' }, buyer.token),
        )
      ).status,
    ).toBe(200);
    return id;
  };
  const escrowStatus = async (id: string) =>
    (await t.database.db.selectFrom('escrows').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

  it(`request-payment: 4 escrows x 6 requests at once against a pool of 2 free addresses, ${ROUNDS} rounds`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      await addToPool(2);
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) ids.push(await sellerOpened(`Pool race ${round}.${i}`));
      const shots = ids.flatMap((id) =>
        Array.from({ length: 6 }, () => ({
          kind: id,
          send: () => t.app.request(`/api/escrows/${id}/request-payment`, bearer(buyer.token, 'POST')),
        })),
      );
      const answers = await fire(shuffled(shots));
      const perEscrow = ids.map((id) => answers.filter((a) => a.kind === id));
      const served = perEscrow.filter((mine) => mine.some(isSuccess));
      expect(served.length, `round ${round}: the 2 free addresses go to exactly 2 escrows\n${summary(answers)}`).toBe(
        2,
      );
      for (const mine of served) expectOneWinner(mine, `round ${round}: one escrow asking 6 times`);
      for (const mine of perEscrow.filter((m) => !m.some(isSuccess))) {
        for (const a of mine)
          expect([a.status, a.detail], `round ${round}: an escrow that got nothing hears why`).toEqual([
            409,
            expect.stringContaining('No payment address is free'),
          ]);
      }
      const given = served.map((mine) => mine.find(isSuccess)!.body.assigned_address);
      expect(new Set(given).size, `round ${round}: two different addresses`).toBe(2);
      const free = await t.database.db.selectFrom('addresses').select('id').where('status', '=', 'available').execute();
      expect(free, 'the pool is empty after every round').toEqual([]);
      await checkLog(t);
    }
    const rows = await t.database.db
      .selectFrom('escrows')
      .select('assigned_address_id')
      .where('assigned_address_id', 'is not', null)
      .execute();
    expect(rows).toHaveLength(2 * ROUNDS);
    expect(new Set(rows.map((r) => r.assigned_address_id)).size).toBe(rows.length);
  });

  it(`release / refund / open-dispute of one funded escrow: 8 + 8 + 4 at once, ${ROUNDS} rounds`, async () => {
    const before = (await checkLog(t)).moneyMoves;
    let moved = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const id = await fundedDeal(`Money race ${round}`);
      const shots = shuffled([
        ...Array.from({ length: 8 }, (_, i) => ({
          kind: 'release',
          send: () => t.app.request(`/api/admin/escrows/${id}/release`, form({ notes: `release ${i}` }, admin.token)),
        })),
        ...Array.from({ length: 8 }, (_, i) => ({
          kind: 'refund',
          send: () => t.app.request(`/api/admin/escrows/${id}/refund`, form({ notes: `refund ${i}` }, admin.token)),
        })),
        ...Array.from({ length: 4 }, (_, i) => ({
          kind: 'dispute',
          send: () =>
            t.app.request(
              `/api/escrows/${id}/open-dispute`,
              json({ reason: `dispute ${i}` }, i % 2 ? seller.token : buyer.token),
            ),
        })),
      ]);
      const winner = expectOneWinner(await fire(shots), `round ${round}: release/refund/dispute`);
      expect(winner.body.status).toBe({ release: 'released', refund: 'refunded', dispute: 'disputed' }[winner.kind]);
      expect(await escrowStatus(id)).toBe(winner.body.status);
      if (winner.kind !== 'dispute') moved += 1;
      await checkLog(t);
    }
    expect((await checkLog(t)).moneyMoves).toBe(before + moved);
  });

  it(`resolve (release / refund / split) of one disputed escrow, with releases and refunds: 4 + 4 + 4 + 4 + 4 at once, ${ROUNDS} rounds`, async () => {
    const before = (await checkLog(t)).moneyMoves;
    for (let round = 0; round < ROUNDS; round++) {
      const id = await fundedDeal(`Dispute race ${round}`);
      expect(
        (await t.app.request(`/api/escrows/${id}/open-dispute`, json({ reason: 'Not as described' }, buyer.token)))
          .status,
      ).toBe(200);
      const dispute = await t.database.db
        .selectFrom('disputes')
        .select('id')
        .where('escrow_id', '=', id)
        .where('status', '=', 'open')
        .executeTakeFirstOrThrow();
      const resolve = (resolution: string, extra: Record<string, string> = {}) => ({
        kind: `resolve ${resolution}`,
        send: () =>
          t.app.request(
            `/api/admin/disputes/${dispute.id}/resolve`,
            form({ outcome: 'Decided', resolution, ...extra }, admin.token),
          ),
      });
      const shots = shuffled([
        ...Array.from({ length: 4 }, () => resolve('release')),
        ...Array.from({ length: 4 }, () => resolve('refund')),
        ...Array.from({ length: 4 }, () => resolve('split', { seller_percent: '60' })),
        ...Array.from({ length: 4 }, () => ({
          kind: 'release',
          send: () => t.app.request(`/api/admin/escrows/${id}/release`, form({ notes: '' }, admin.token)),
        })),
        ...Array.from({ length: 4 }, () => ({
          kind: 'refund',
          send: () => t.app.request(`/api/admin/escrows/${id}/refund`, form({ notes: '' }, admin.token)),
        })),
      ]);
      const winner = expectOneWinner(await fire(shots), `round ${round}: resolve/release/refund of a disputed escrow`);
      expect(winner.kind, 'only a resolution ends a dispute').toMatch(/^resolve /);
      expect(winner.body.status).toBe(winner.kind === 'resolve refund' ? 'refunded' : 'released');
      expect(await escrowStatus(id)).toBe(winner.body.status);
      await checkLog(t);
    }
    expect((await checkLog(t)).moneyMoves).toBe(before + ROUNDS);
  });

  it(`approve / reject of one pending review: 10 + 10 at once, ${ROUNDS} rounds`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const submitted = await t.app.request(
        '/api/reviews',
        json({
          name: 'Racer',
          email: 'racer@example.com',
          country: 'Germany',
          rating: 4,
          text: `Review ${round}`,
          terms_accepted: true,
        }),
      );
      expect(submitted.status).toBe(201);
      const { id } = (await submitted.json()) as { id: string };
      const shots = shuffled([
        ...Array.from({ length: 10 }, () => ({
          kind: 'approve',
          send: () => t.app.request(`/api/admin/reviews/${id}/approve`, bearer(admin.token, 'POST')),
        })),
        ...Array.from({ length: 10 }, (_, i) => ({
          kind: 'reject',
          send: () => t.app.request(`/api/admin/reviews/${id}/reject`, form({ reason: `Spam ${i}` }, admin.token)),
        })),
      ]);
      const winner = expectOneWinner(await fire(shots), `round ${round}: approve/reject`);
      const status = (
        await t.database.db.selectFrom('reviews').select('status').where('id', '=', id).executeTakeFirstOrThrow()
      ).status;
      expect(status).toBe(winner.kind === 'approve' ? 'approved' : 'rejected');
      await checkLog(t);
    }
  });

  it(`suspend while the user signs in: 3 suspensions among 20 logins spread over 40 ms, ${SUSPEND_ROUNDS} rounds; no token survives`, async () => {
    let letIn = 0;
    let refused = 0;
    for (let round = 0; round < SUSPEND_ROUNDS; round++) {
      const username = `mallory${round}`;
      const userId = await registerUser(t, username, 'buyer');
      // Logins leave every 2 ms; the suspensions leave as soon as the first login is answered, so some logins finish
      // before a suspension and the rest are still in flight around it.
      let firstAnswered!: () => void;
      const firstLogin = new Promise<void>((resolve) => (firstAnswered = resolve));
      const login = () =>
        Promise.resolve(t.app.request('/api/auth/login', json({ username, password: PASSWORD }))).finally(
          firstAnswered,
        );
      const suspend = () => t.app.request(`/api/admin/users/${userId}/suspend`, form({ reason: 'Fraud' }, admin.token));
      const shots = [
        ...Array.from({ length: 20 }, (_, i) => ({ kind: 'login', delayMs: 2 * i, send: login })),
        ...Array.from({ length: 3 }, () => ({ kind: 'suspend', send: () => firstLogin.then(suspend) })),
      ];
      const answers = await fire(shots);
      // Each sign-in appends to the user's stream: a suspension that lost the version race to one is decided again
      // (accounts/admin-users.ts), so exactly one of the three lands, whatever the logins do.
      expectOneWinner(
        answers.filter((a) => a.kind === 'suspend'),
        `round ${round}: suspensions`,
      );
      const logins = answers.filter((a) => a.kind === 'login');
      for (const a of logins) {
        expect(
          [200, 403, 409],
          `round ${round}: a login is let in, refused as suspended, or told to retry\n${summary([a])}`,
        ).toContain(a.status);
      }
      // Every token a login handed out is dead: refused over HTTP, and its session row revoked.
      const tokens = logins.filter((a) => a.status === 200).map((a) => a.body.access_token as string);
      letIn += tokens.length;
      refused += logins.length - tokens.length;
      for (const token of tokens) {
        const me = await t.app.request('/api/auth/me', bearer(token));
        expect([401, 403], `round ${round}: a token from a login that raced the suspension is refused`).toContain(
          me.status,
        );
        expect(
          await sessionUser(t.database.db, token),
          `round ${round}: the session of a token handed out is revoked`,
        ).toBeUndefined();
      }
      const late = await t.app.request('/api/auth/login', json({ username, password: PASSWORD }));
      expect([late.status, ((await late.json()) as { detail: string }).detail]).toEqual([403, 'Account suspended']);
      const user = await t.database.db
        .selectFrom('users')
        .select('is_frozen')
        .where('id', '=', userId)
        .executeTakeFirstOrThrow();
      expect(user.is_frozen).toBe(true);
      expect((await checkLog(t)).suspensions.get(userId)).toBe(1);
    }
    // The race really happened: over the rounds, logins landed on both sides of the suspension.
    expect(letIn, 'some logins finished before a suspension').toBeGreaterThan(0);
    expect(refused, 'some logins were refused: as suspended, or told to retry').toBeGreaterThan(0);
  });

  it('the same Idempotency-Key sent 2 (x5 rounds) and 10 (x5 rounds) times at once: one escrow, one answer', async () => {
    const created = async () =>
      Number(
        (
          await sql<{ n: number }>`SELECT count(*)::int AS n FROM events WHERE type = 'EscrowCreated'`.execute(
            t.database.db,
          )
        ).rows[0]!.n,
      );
    for (const [round, copies] of [2, 2, 2, 2, 2, 10, 10, 10, 10, 10].entries()) {
      const before = await created();
      const body = {
        product_service: `Idempotent ${round}`,
        description: 'Sent twice',
        amount_usd: '99.00',
        buyer_email: 'ann@example.com',
      };
      const headers = { 'idempotency-key': `race-key-${round}` };
      // Two copies leave together; ten are spread over 50 ms, so later ones may find the first finished.
      const shots = Array.from({ length: copies }, (_, i) => ({
        kind: `copy ${i}`,
        delayMs: copies > 2 ? 5 * i : 0,
        send: () => t.app.request('/api/escrows', json(body, seller.token, headers)),
      }));
      const answers = await fire(shots);
      // The middleware's promise: the first acts; a copy arriving while it runs gets 409, one arriving after it
      // gets the first answer again (marked as replayed).
      const acted = answers.filter((a) => a.status === 201 && !a.replayed);
      expect(acted.length, `round ${round}: exactly one request acted\n${summary(answers)}`).toBe(1);
      for (const a of answers.filter((x) => x !== acted[0])) {
        if (a.status === 201) {
          expect(a.replayed).toBe(true);
          expect(a.body, `round ${round}: a replay is the first answer`).toEqual(acted[0]!.body);
        } else {
          expect([a.status, a.detail], `round ${round}: a copy that came too early is told so`).toEqual([
            409,
            'A request with this Idempotency-Key is still in progress',
          ]);
        }
      }
      expect((await created()) - before, `round ${round}: one escrow was created`).toBe(1);
      // A retry after the race replays the one answer.
      const retry = await t.app.request('/api/escrows', json(body, seller.token, headers));
      expect([retry.status, retry.headers.get('idempotent-replayed'), await retry.json()]).toEqual([
        201,
        'true',
        acted[0]!.body,
      ]);
      await checkLog(t);
    }
  });

  it('leaves a log that still adds up after every race', async () => {
    const facts = await checkLog(t);
    expect(facts.moneyMoves).toBeGreaterThanOrEqual(ROUNDS);
    expect(facts.events).toBeGreaterThan(150);
  });
});

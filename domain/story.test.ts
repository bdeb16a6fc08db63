import { describe, expect, it } from 'vitest';
import type { EscrowEvent } from './escrow/events.ts';
import { CREATOR_ID, ESCROW_ID, histories, sample, sampleWith, splitResolved70 } from './escrow/test-fixtures.ts';
import { type StoryEvent, StoryCheck } from './story.ts';

/**
 * The story a log tells, checked event by event whatever its hashes say: each reason a log is refused, shown with a
 * sequence of events that triggers it, and the stories that are possible, accepted.
 */
const ADMIN = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const STRANGER = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const OTHER_ESCROW = 'cccccccc-cccc-4ccc-8ccc-cccccccccccc';

type Step = Omit<StoryEvent, 'position'>;

/** Events only an admin records: in the fixtures' histories they are the admin's. */
const adminActs = new Set([
  'PaymentVerified',
  'PaymentRejected',
  'EscrowReleased',
  'EscrowRefunded',
  'DisputeResolved',
  'EscrowFrozen',
  'EscrowUnfrozen',
]);

/** An escrow event as stored: by the admin if it is an admin's act, else by the escrow's creator. */
const onEscrow = (event: EscrowEvent, options: { actor?: string; occurred_at?: string; id?: string } = {}): Step => ({
  stream_id: `escrow:${options.id ?? ESCROW_ID}`,
  type: event.type,
  data: event.data,
  metadata: { actor: options.actor ?? (adminActs.has(event.type) ? ADMIN : CREATOR_ID) },
  ...(options.occurred_at ? { occurred_at: options.occurred_at } : {}),
});
const story = (events: readonly EscrowEvent[]) => events.map((e) => onEscrow(e));

const onUser = (id: string, type: string, data: unknown, actor = 'system'): Step => ({
  stream_id: `user:${id}`,
  type,
  data,
  metadata: { actor },
});
const registered = (id: string, role: 'buyer' | 'seller' | 'admin') =>
  onUser(id, 'UserRegistered', {
    user_id: id,
    username: `user-${role}`,
    email: `${role}@example.com`,
    full_name: 'A Person',
    role,
    country: null,
    phone: null,
  });
const adminRegistered = registered(ADMIN, 'admin');

/** Feeds the steps in order (positions 1, 2, …) and answers the first reason, or null when the story holds. */
function tell(steps: readonly Step[]): string | null {
  const check = new StoryCheck();
  for (const [index, step] of steps.entries()) {
    const reason = check.see({ position: index + 1, ...step });
    if (reason !== null) return reason;
  }
  return null;
}

const withoutLast = <T>(events: readonly T[]) => events.slice(0, -1);
const at = (position: number, type: string) => `event ${position} (${type} on escrow ${ESCROW_ID})`;

describe('a possible story', () => {
  it('is accepted: a release with its payout, among events of other streams', () => {
    expect(
      tell([
        adminRegistered,
        registered(CREATOR_ID, 'buyer'),
        ...story(withoutLast(histories.released)),
        { stream_id: 'address:33333333', type: 'AddressAllocated', data: {}, metadata: { actor: STRANGER } },
        { stream_id: 'settings:pricing', type: 'PricingChanged', data: null, metadata: { actor: STRANGER } },
        onEscrow(
          sampleWith('EscrowReleased', { destinations: [{ to: 'seller', address: 'bc1qpayout', sats: 2_000_000 }] }),
        ),
      ]),
    ).toBeNull();
  });

  it('is accepted: a refund to the refund address in force', () => {
    expect(
      tell([
        adminRegistered,
        ...story(withoutLast(histories.refunded)),
        onEscrow(
          sampleWith('EscrowRefunded', { destinations: [{ to: 'buyer', address: 'bc1qrefund', sats: 2_030_000 }] }),
        ),
      ]),
    ).toBeNull();
  });

  it('is accepted: a split of a dispute, each share to its address in force', () => {
    expect(tell([adminRegistered, ...story(histories.disputedFromFunded), onEscrow(splitResolved70)])).toBeNull();
  });

  it('is accepted: a dispute resolved without moving money, whatever figures it carries', () => {
    // The sample resolution moves nothing and says 0 + 0 + 0, not the 2 030 000 held: it is not a payout.
    expect(
      tell([adminRegistered, ...story(histories.disputedFromFunded), onEscrow(sample.DisputeResolved)]),
    ).toBeNull();
  });

  it('keeps each escrow apart: a second escrow is created on its own stream', () => {
    expect(
      tell([
        adminRegistered,
        ...story(histories.funded),
        onEscrow(sample.EscrowCreated, { id: OTHER_ESCROW }),
        onEscrow(sample.EscrowFrozen, { id: OTHER_ESCROW }),
        onEscrow(sampleWith('EscrowReleased', {})),
      ]),
    ).toBeNull();
  });

  it('keeps a finished escrow final: only a party bound, each refusal naming its own end', () => {
    const other = (event: EscrowEvent) => onEscrow(event, { id: OTHER_ESCROW });
    const refundedThenReleased = [
      adminRegistered,
      ...story(withoutLast(histories.refunded)),
      onEscrow(
        sampleWith('EscrowRefunded', { destinations: [{ to: 'buyer', address: 'bc1qrefund', sats: 2_030_000 }] }),
      ),
      ...withoutLast(histories.released).map(other),
      other(sampleWith('EscrowReleased', { destinations: [{ to: 'seller', address: 'bc1qpayout', sats: 2_000_000 }] })),
    ];
    expect(tell([...refundedThenReleased, onEscrow(sample.PartyBound), other(sample.PartyBound)])).toBeNull();
    const next = refundedThenReleased.length + 1;
    expect(tell([...refundedThenReleased, other(sample.EscrowRefunded)])).toBe(
      `event ${next} (EscrowRefunded on escrow ${OTHER_ESCROW}) is a transition the escrow machine refuses: Stored event EscrowRefunded is not allowed while released`,
    );
    expect(tell([...refundedThenReleased, onEscrow(sample.PaymentMarked)])).toBe(
      `${at(next, 'PaymentMarked')} is a transition the escrow machine refuses: Stored event PaymentMarked is not allowed while refunded`,
    );
  });

  it('follows the time an event happened: an expiry after the payment deadline', () => {
    // The sample escrow's payment was due 2026-01-08.
    expect(
      tell([
        onEscrow(sample.EscrowCreated),
        onEscrow(sample.EscrowExpired, { occurred_at: '2026-01-09T00:00:00.000Z' }),
      ]),
    ).toBeNull();
  });
});

describe("an admin's act by someone never made admin", () => {
  const acts: [EscrowEvent, readonly EscrowEvent[]][] = [
    [sample.PaymentVerified, histories.pendingMarked],
    [sample.PaymentRejected, histories.pendingMarked],
    [sample.EscrowReleased, withoutLast(histories.released)],
    [sample.EscrowRefunded, withoutLast(histories.refunded)],
    [sample.DisputeResolved, histories.disputedFromFunded],
    [sample.EscrowFrozen, histories.pendingFresh],
    [sample.EscrowUnfrozen, histories.frozen],
  ];

  it.each(acts)('is refused: $type by a party', (act, before) => {
    const steps = [adminRegistered, ...story(before), onEscrow(act, { actor: CREATOR_ID })];
    expect(tell(steps)).toBe(
      `${at(steps.length, act.type)} is an admin's act by ${CREATOR_ID}, who was never made an admin`,
    );
    // The same act by the admin is part of the story.
    expect(tell([...steps.slice(0, -1), onEscrow(act, { actor: ADMIN })])).toBeNull();
  });

  it('is refused: a payment address assigned "by an admin" by a party, not one the buyer asked for', () => {
    const byAdmin: EscrowEvent = {
      type: 'PaymentAddressAssigned',
      data: { ...sample.PaymentAddressAssigned.data, assigned_via: 'admin' },
    };
    expect(tell([onEscrow(sample.EscrowCreated), onEscrow(byAdmin, { actor: STRANGER })])).toBe(
      `${at(2, 'PaymentAddressAssigned')} is an admin's act by ${STRANGER}, who was never made an admin`,
    );
    expect(tell([adminRegistered, onEscrow(sample.EscrowCreated), onEscrow(byAdmin, { actor: ADMIN })])).toBeNull();
    expect(tell([onEscrow(sample.EscrowCreated), onEscrow(sample.PaymentAddressAssigned)])).toBeNull();
  });

  it("is refused: a message on the admin's side by a party, not one on a party's side", () => {
    const asAdmin: EscrowEvent = { type: 'MessagePosted', data: { ...sample.MessagePosted.data, side: 'admin' } };
    expect(tell([onEscrow(sample.EscrowCreated), onEscrow(asAdmin, { actor: STRANGER })])).toBe(
      `${at(2, 'MessagePosted')} is an admin's act by ${STRANGER}, who was never made an admin`,
    );
    expect(tell([adminRegistered, onEscrow(sample.EscrowCreated), onEscrow(asAdmin, { actor: ADMIN })])).toBeNull();
    expect(tell([onEscrow(sample.EscrowCreated), onEscrow(sample.MessagePosted, { actor: STRANGER })])).toBeNull();
  });

  it("reads who acted as an admin only on the address assignment and the message, not on a party's event", () => {
    const markedWith = (stray: object): EscrowEvent =>
      ({ ...sample.PaymentMarked, data: { ...sample.PaymentMarked.data, ...stray } }) as EscrowEvent;
    const before = story([sample.EscrowCreated, sample.PaymentAddressAssigned]);
    expect(tell([...before, onEscrow(markedWith({ assigned_via: 'admin' }))])).toBeNull();
    expect(tell([...before, onEscrow(markedWith({ side: 'admin' }))])).toBeNull();
  });

  it('is checked before the event is applied, even when it would also be an impossible transition', () => {
    expect(tell([onEscrow(sample.EscrowCreated), onEscrow(sample.EscrowUnfrozen, { actor: STRANGER })])).toBe(
      `${at(2, 'EscrowUnfrozen')} is an admin's act by ${STRANGER}, who was never made an admin`,
    );
  });

  it('is checked on an escrow stream written without an id', () => {
    expect(
      tell([{ stream_id: 'escrow', type: 'EscrowFrozen', data: { reason: 'x' }, metadata: { actor: STRANGER } }]),
    ).toBe(`event 1 (EscrowFrozen on escrow ) is an admin's act by ${STRANGER}, who was never made an admin`);
  });
});

describe('who was made an admin', () => {
  const freeze = (actor: string) => [onEscrow(sample.EscrowCreated), onEscrow(sample.EscrowFrozen, { actor })];
  const never = (actor: string) =>
    `${at(3, 'EscrowFrozen')} is an admin's act by ${actor}, who was never made an admin`;

  it('is the account registered as an admin, or switched or updated to admin', () => {
    expect(tell([onUser(STRANGER, 'RoleSwitched', { from: 'buyer', to: 'admin' }), ...freeze(STRANGER)])).toBeNull();
    expect(tell([onUser(STRANGER, 'UserUpdated', { role: 'admin' }), ...freeze(STRANGER)])).toBeNull();
    expect(tell([registered(STRANGER, 'admin'), ...freeze(STRANGER)])).toBeNull();
  });

  it('is not an account registered, switched or updated to another role', () => {
    expect(tell([registered(STRANGER, 'seller'), ...freeze(STRANGER)])).toBe(never(STRANGER));
    expect(tell([onUser(STRANGER, 'RoleSwitched', { from: 'admin', to: 'seller' }), ...freeze(STRANGER)])).toBe(
      never(STRANGER),
    );
    expect(tell([onUser(STRANGER, 'UserUpdated', { full_name: 'Admin' }), ...freeze(STRANGER)])).toBe(never(STRANGER));
  });

  it("is the account whose stream says so, not the actor who wrote it, nor an admin role on another event's data", () => {
    // The stranger writes an admin's registration on the admin's stream: the admin is the stream's account.
    expect(tell([onUser(ADMIN, 'UserRegistered', { role: 'admin' }, STRANGER), ...freeze(STRANGER)])).toBe(
      never(STRANGER),
    );
    expect(tell([onUser(STRANGER, 'EmailVerified', { role: 'admin', to: 'admin' }), ...freeze(STRANGER)])).toBe(
      never(STRANGER),
    );
    // A role switch written on a stream that is not an account's makes no one an admin.
    expect(
      tell([
        { stream_id: `settings:${STRANGER}`, type: 'RoleSwitched', data: { to: 'admin' }, metadata: { actor: 'x' } },
        ...freeze(STRANGER),
      ]),
    ).toBe(never(STRANGER));
  });
});

describe('a transition the escrow machine refuses', () => {
  it('is refused with the rule it breaks: an unfreeze of an escrow never frozen', () => {
    expect(tell([adminRegistered, ...story(histories.pendingFresh), onEscrow(sample.EscrowUnfrozen)])).toBe(
      `${at(3, 'EscrowUnfrozen')} is a transition the escrow machine refuses: Stored event EscrowUnfrozen is not allowed while pending_payment`,
    );
  });

  it('is refused: a payment marked on an escrow never created', () => {
    expect(tell([onEscrow(sample.PaymentMarked)])).toBe(
      `${at(1, 'PaymentMarked')} is a transition the escrow machine refuses: Stored event PaymentMarked is not allowed while draft`,
    );
  });

  it('is refused: an expiry dated before the payment deadline', () => {
    expect(
      tell([
        onEscrow(sample.EscrowCreated),
        onEscrow(sample.EscrowExpired, { occurred_at: '2026-01-05T00:00:00.000Z' }),
      ]),
    ).toBe(
      `${at(2, 'EscrowExpired')} is a transition the escrow machine refuses: Stored event EscrowExpired is not allowed while pending_payment`,
    );
  });

  it('is refused: an event whose data the machine cannot read', () => {
    expect(
      tell([
        onEscrow(sample.EscrowCreated),
        { stream_id: `escrow:${ESCROW_ID}`, type: 'PartyBound', data: null, metadata: { actor: CREATOR_ID } },
      ]),
    ).toBe(
      `${at(2, 'PartyBound')} is a transition the escrow machine refuses: Cannot read properties of null (reading 'side')`,
    );
  });
});

describe('money that does not add up', () => {
  it('is refused: a release that pays the seller more than the escrow held', () => {
    const steps = [
      adminRegistered,
      ...story(withoutLast(histories.released)),
      onEscrow(sampleWith('EscrowReleased', { seller_sats: 2_000_001 })),
    ];
    expect(tell(steps)).toBe(
      `${at(steps.length, 'EscrowReleased')}: money does not add up: 2000001 to the seller, 0 to the buyer and 30000 in fees make 2030001 satoshis, but the escrow held 2030000`,
    );
  });

  it('is refused: a refund that keeps back part of the money', () => {
    const steps = [
      adminRegistered,
      ...story(withoutLast(histories.refunded)),
      onEscrow(sampleWith('EscrowRefunded', { buyer_sats: 2_000_000 })),
    ];
    expect(tell(steps)).toBe(
      `${at(steps.length, 'EscrowRefunded')}: money does not add up: 0 to the seller, 2000000 to the buyer and 0 in fees make 2000000 satoshis, but the escrow held 2030000`,
    );
  });

  it('is refused: a split whose shares and fee make more than the escrow held', () => {
    const steps = [
      adminRegistered,
      ...story(histories.disputedFromFunded),
      onEscrow(sampleWith('DisputeResolved', { ...(splitResolved70.data as object), fee_sats: 40_000 })),
    ];
    expect(tell(steps)).toBe(
      `${at(steps.length, 'DisputeResolved')}: money does not add up: 1400000 to the seller, 600000 to the buyer and 40000 in fees make 2040000 satoshis, but the escrow held 2030000`,
    );
  });

  it('is refused before the event moves the story: a corrected release that follows is accepted', () => {
    const check = new StoryCheck();
    const steps = [adminRegistered, ...story(withoutLast(histories.released))];
    for (const [index, step] of steps.entries()) expect(check.see({ position: index + 1, ...step })).toBeNull();
    expect(check.see({ position: 10, ...onEscrow(sampleWith('EscrowReleased', { fee_sats: 0 })) })).toMatch(
      /money does not add up/,
    );
    expect(check.see({ position: 11, ...onEscrow(sampleWith('EscrowReleased', {})) })).toBeNull();
  });
});

describe('money sent elsewhere than the address in force', () => {
  const releaseSteps = [adminRegistered, ...story(withoutLast(histories.released))];

  it("is refused: a release to another address than the seller's payout address", () => {
    const steps = [
      ...releaseSteps,
      onEscrow(
        sampleWith('EscrowReleased', { destinations: [{ to: 'seller', address: 'bc1qthief', sats: 2_000_000 }] }),
      ),
    ];
    expect(tell(steps)).toBe(
      `${at(steps.length, 'EscrowReleased')}: money goes to bc1qthief, which is not the payout address in force (bc1qpayout)`,
    );
  });

  it("is refused: a refund to another address than the buyer's refund address", () => {
    const steps = [
      adminRegistered,
      ...story(withoutLast(histories.refunded)),
      onEscrow(
        sampleWith('EscrowRefunded', { destinations: [{ to: 'buyer', address: 'bc1qthief', sats: 2_030_000 }] }),
      ),
    ];
    expect(tell(steps)).toBe(
      `${at(steps.length, 'EscrowRefunded')}: money goes to bc1qthief, which is not the refund address in force (bc1qrefund)`,
    );
  });

  it('is refused: money to the buyer when no refund address was ever set, checked after a right destination', () => {
    const steps = [
      ...releaseSteps,
      onEscrow(
        sampleWith('EscrowReleased', {
          destinations: [
            { to: 'seller', address: 'bc1qpayout', sats: 2_000_000 },
            { to: 'buyer', address: 'bc1qthief', sats: 0 },
          ],
        }),
      ),
    ];
    expect(tell(steps)).toBe(
      `${at(steps.length, 'EscrowReleased')}: money goes to bc1qthief, which is not the refund address in force (none set)`,
    );
  });

  it("is refused: the seller's address given other satoshis than the seller's share", () => {
    const steps = [
      ...releaseSteps,
      onEscrow(
        sampleWith('EscrowReleased', { destinations: [{ to: 'seller', address: 'bc1qpayout', sats: 1_999_999 }] }),
      ),
    ];
    expect(tell(steps)).toBe(
      `${at(steps.length, 'EscrowReleased')}: 1999999 satoshis go to the seller's address, but the event gives the seller 2000000`,
    );
  });

  it("is refused: the buyer's address given other satoshis than the buyer's share of a split", () => {
    const destinations = [
      { to: 'seller' as const, address: 'bc1qpayout', sats: 1_400_000 },
      { to: 'buyer' as const, address: 'bc1qrefund', sats: 630_000 },
    ];
    const steps = [
      adminRegistered,
      ...story(histories.disputedFromFunded),
      onEscrow(sampleWith('DisputeResolved', { ...(splitResolved70.data as object), destinations })),
    ];
    expect(tell(steps)).toBe(
      `${at(steps.length, 'DisputeResolved')}: 630000 satoshis go to the buyer's address, but the event gives the buyer 600000`,
    );
  });
});

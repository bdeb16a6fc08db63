import fc from 'fast-check';
import type { Aggregate } from '../../domain/aggregates.ts';
import {
  addressAggregate,
  escrowAggregate,
  reviewAggregate,
  settingsAggregate,
  userAggregate,
} from '../../domain/aggregates.ts';
import { SETTINGS_ID } from '../../domain/events.ts';

/** A small universe of ids, so random commands keep hitting the same streams and build real histories. */
const ids = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${prefix}${i}000000-0000-4000-8000-00000000000${i}`);
export const USERS = ids('a', 3);
export const ESCROWS = ids('b', 3);
export const ADDRESSES = ids('c', 3);
export const REVIEWS = ids('d', 3);
/** The ids proposals are given (the decider draws them; the run hands out these), so answers can name them. */
export const PROPOSALS = ids('e', 2);
const TXID = 'f'.repeat(64);

export interface RandomCommand {
  aggregate: Aggregate<unknown, unknown>;
  id: string;
  command: unknown;
  actor: string;
  /** Minutes after the start of the run at which the command is given. */
  minute: number;
  /** The id the decider hands out for this command, when it must be known in advance (a proposal's). */
  newId?: string | undefined;
}

const as = <S, C>(aggregate: Aggregate<S, C>) => aggregate as unknown as Aggregate<unknown, unknown>;
const by = fc.constantFrom('buyer', 'seller', 'admin', 'system');
const text = fc.constantFrom('ok', 'Checked on chain', 'A reason', '');

const escrowCommand = fc.oneof(
  fc.record({
    type: fc.constant('create'),
    escrow_id: fc.constant(''),
    created_by: fc.constantFrom(...USERS),
    creator_side: fc.constantFrom('buyer', 'seller'),
    creator_email: fc.constant('creator@example.com'),
    counterparty_email: fc.constantFrom('other@example.com', 'creator@example.com'),
    product_service: fc.constant('Laptop'),
    description: fc.constant('Used, good condition'),
    amount_cents: fc.integer({ min: 1, max: 10_000_000 }),
    deadline_days: fc.integer({ min: 1, max: 3 }),
    inspection_days: fc.constantFrom(0, 1, 3),
    pricing: fc.record({
      rate_cents: fc.integer({ min: 1_000_000, max: 10_000_000 }),
      fee_bps: fc.constant(150),
    }),
  }),
  fc.record({
    type: fc.constant('assignAddress'),
    address_id: fc.constantFrom(...ADDRESSES),
    address: fc.constant('bc1qexample'),
  }),
  fc.record({ type: fc.constant('markPaid'), notes: text, evidence: fc.constant([]) }),
  fc.record({ type: fc.constant('rejectPayment'), notes: text }),
  fc.record({ type: fc.constant('verifyPayment'), notes: text, txid: fc.constantFrom(TXID, null) }),
  fc.record({ type: fc.constant('agree') }),
  fc.record({ type: fc.constant('decline'), reason: fc.constantFrom('Sold elsewhere', ' ') }),
  fc.record({
    type: fc.constant('ship'),
    method: fc.constantFrom('shipping', 'digital', 'service'),
    carrier: fc.constantFrom('DHL', null),
    tracking: fc.constantFrom('JD014600006', null),
    note: fc.constantFrom('Boxed', null),
  }),
  fc.record({ type: fc.constant('receive') }),
  fc.record({ type: fc.constant('acceptAfterInspection') }),
  fc.record({ type: fc.constant('confirmReceipt') }),
  fc.record({ type: fc.constant('setPayoutAddress'), address: fc.constantFrom('bc1qpayout', 'bc1qrefund') }),
  fc.record({ type: fc.constant('release'), notes: text, txid: fc.constant(TXID) }),
  fc.record({ type: fc.constant('refund'), notes: text, txid: fc.constant(null) }),
  fc.record({ type: fc.constant('openDispute'), reason: fc.constant('Not delivered') }),
  fc.record({
    type: fc.constant('resolveDispute'),
    outcome: fc.constant('Agreed'),
    resolution: fc.constantFrom('release', 'refund', 'split', null),
    seller_percent: fc.constantFrom(30, null),
    txid: fc.constant(null),
  }),
  fc.record({ type: fc.constant('cancel') }),
  fc.record({ type: fc.constant('expire') }),
  fc.record({ type: fc.constant('freeze'), reason: fc.constant('Looking into it') }),
  fc.record({ type: fc.constant('unfreeze'), reason: fc.constant('Cleared') }),
  fc.record({ type: fc.constant('postMessage'), text }),
  fc.record({
    type: fc.constant('propose'),
    kind: fc.constantFrom('cancel', 'refund', 'split', 'extend_deadline', 'extend_inspection'),
    seller_percent: fc.constantFrom(30, 100, null),
    days: fc.constantFrom(2, null),
    note: fc.constantFrom('Fair?', null),
    proposal_id: fc.constantFrom(...PROPOSALS),
  }),
  fc.record({
    type: fc.constantFrom('acceptProposal', 'withdrawProposal'),
    proposal_id: fc.constantFrom(...PROPOSALS),
  }),
  fc.record({
    type: fc.constant('declineProposal'),
    proposal_id: fc.constantFrom(...PROPOSALS),
    reason: fc.constantFrom('No', null),
  }),
);

const userCommand = fc.oneof(
  fc.record({
    type: fc.constant('register'),
    user_id: fc.constant(''),
    username: fc.constantFrom('alice', 'bob', 'carol'),
    email: fc.constantFrom('alice@example.com', 'bob@example.com'),
    full_name: fc.constant('Alice Example'),
    role: fc.constantFrom('buyer', 'seller', 'admin'),
    country: fc.constantFrom('DE', null),
    phone: fc.constant(null),
  }),
  fc.record({
    type: fc.constant('verifyEmail'),
    email: fc.constantFrom('alice@example.com', 'new@example.com'),
  }),
  fc.record({ type: fc.constant('switchRole'), to: fc.constantFrom('buyer', 'seller') }),
  fc.constantFrom(
    { type: 'enableTwoFactor' },
    { type: 'disableTwoFactor' },
    { type: 'unsuspend' },
    { type: 'delete' },
    { type: 'signIn' },
  ),
  fc.record({ type: fc.constant('suspend'), reason: fc.constantFrom('Fraud suspected', ' ') }),
  fc.record({
    type: fc.constant('update'),
    full_name: fc.constantFrom('New Name', undefined),
    email: fc.constantFrom('new@example.com', undefined),
    role: fc.constantFrom('seller', undefined),
  }),
);

const reviewCommand = fc.oneof(
  fc.record({
    type: fc.constant('submit'),
    review_id: fc.constant(''),
    name: fc.constant('Dana'),
    email: fc.constant(null),
    country: fc.constantFrom('DE', 'FR', 'US'),
    rating: fc.constantFrom(5, 4.5, 4, 3.5, 3),
    text: fc.constant('Smooth deal'),
    escrow_id: fc.constant(null),
    verified_deal: fc.boolean(),
  }),
  fc.constantFrom({ type: 'approve' }, { type: 'reopen' }, { type: 'delete' }),
  fc.record({
    type: fc.constant('edit'),
    edited_text: fc.constant('Smooth deal, fast'),
    admin_note: fc.constant('typo'),
  }),
  fc.record({ type: fc.constant('reject'), reason: fc.constantFrom('Spam', '') }),
);

const addressCommand = fc.oneof(
  fc.record({
    type: fc.constant('add'),
    address_id: fc.constant(''),
    address: fc.constant(''),
    network: fc.constant('mainnet'),
  }),
  fc.constantFrom({ type: 'change', address: 'bc1qchanged' }, { type: 'remove' }),
  fc.record({ type: fc.constantFrom('assign', 'free', 'markUsed'), escrow_id: fc.constantFrom(...ESCROWS) }),
);

const settingsCommand = fc.record({
  type: fc.constant('setPricing'),
  rate_cents: fc.integer({ min: 1, max: 10_000_000 }),
  fee_bps: fc.constantFrom(150, 200, undefined),
});

/** Fills in the ids that must match the stream the command goes to. */
function bind(command: Record<string, unknown>, id: string): Record<string, unknown> {
  const fields: Record<string, string> = {
    create: 'escrow_id',
    register: 'user_id',
    submit: 'review_id',
    add: 'address_id',
  };
  const field = fields[command.type as string];
  if (!field) return command;
  return command.type === 'add'
    ? { ...command, address_id: id, address: `bc1q${id.slice(0, 8)}` }
    : { ...command, [field]: id };
}

/** Streams that exist before the random part: escrows on both sides, users, pool addresses, reviews. */
export function setupCommands(): RandomCommand[] {
  const at = (
    aggregate: Aggregate<unknown, unknown>,
    id: string,
    command: Record<string, unknown>,
    actor = 'system',
  ) => ({
    aggregate,
    id,
    command: bind(command, id),
    actor,
    minute: 0,
  });
  return [
    at(as(settingsAggregate), SETTINGS_ID, { type: 'setPricing', rate_cents: 5_000_000 }),
    ...USERS.map((id, i) =>
      at(as(userAggregate), id, {
        type: 'register',
        username: `user${i}`,
        email: `user${i}@example.com`,
        full_name: `User ${i}`,
        role: i === 0 ? 'admin' : 'buyer',
        country: null,
        phone: null,
      }),
    ),
    ...ADDRESSES.map((id) => at(as(addressAggregate), id, { type: 'add', network: 'mainnet' })),
    ...ESCROWS.map((id, i) =>
      at(as(escrowAggregate), id, {
        type: 'create',
        by: i % 2 ? 'seller' : 'buyer',
        created_by: USERS[1],
        creator_side: i % 2 ? 'seller' : 'buyer',
        creator_email: 'user1@example.com',
        counterparty_email: 'user2@example.com',
        product_service: 'Camera',
        description: 'Mirrorless camera',
        amount_cents: 12_345 * (i + 1),
        deadline_days: 2,
        pricing: { rate_cents: 5_000_000, fee_bps: 150 },
      }),
    ),
    ...REVIEWS.map((id, i) =>
      at(as(reviewAggregate), id, {
        type: 'submit',
        name: 'Eve',
        email: null,
        country: ['DE', 'FR', 'US'][i],
        rating: 4.5,
        text: 'Good',
        escrow_id: null,
        verified_deal: false,
      }),
    ),
  ];
}

/** Random commands across every aggregate; many are refused by the rules, which is part of the test. */
export const randomCommands = (maxLength: number) =>
  fc.array(
    fc
      .oneof(
        {
          weight: 5,
          arbitrary: fc.tuple(
            fc.constant(as(escrowAggregate)),
            fc.constantFrom(...ESCROWS),
            fc.tuple(escrowCommand, by).map(([c, b]) => ({ ...c, by: b })),
          ),
        },
        {
          weight: 2,
          arbitrary: fc.tuple(fc.constant(as(userAggregate)), fc.constantFrom(...USERS), userCommand),
        },
        {
          weight: 2,
          arbitrary: fc.tuple(fc.constant(as(reviewAggregate)), fc.constantFrom(...REVIEWS), reviewCommand),
        },
        {
          weight: 2,
          arbitrary: fc.tuple(fc.constant(as(addressAggregate)), fc.constantFrom(...ADDRESSES), addressCommand),
        },
        {
          weight: 1,
          arbitrary: fc.tuple(fc.constant(as(settingsAggregate)), fc.constant(SETTINGS_ID), settingsCommand),
        },
      )
      .chain(([aggregate, id, command]) =>
        fc.record({
          aggregate: fc.constant(aggregate),
          id: fc.constant(id),
          command: fc.constant(bind(command as Record<string, unknown>, id)),
          actor: fc.constantFrom(...USERS, 'system'),
          minute: fc.integer({ min: 0, max: 60 * 24 * 5 }),
          // A proposal is given the id its command names, so later answers can name it.
          newId: fc.constant(
            (command as { type: string; proposal_id?: string }).type === 'propose'
              ? (command as { proposal_id: string }).proposal_id
              : undefined,
          ),
        }),
      ),
    { minLength: 1, maxLength },
  );

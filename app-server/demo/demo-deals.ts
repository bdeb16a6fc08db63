import { randomBytes } from 'node:crypto';
import { bech32 } from '@scure/base';
import { HRP_OF_NETWORK } from '../../domain/bitcoin-address.ts';
import type { AppDeps } from '../app-deps.ts';
import type { DemoCall } from './demo-client.ts';

export const emailOf = (username: string) => `${username}@example.com`;

/** A valid address for the network that nobody holds a key for (a random witness program): demo only. */
export const demoAddress = (network: AppDeps['config']['BITCOIN_NETWORK']) =>
  bech32.encode(HRP_OF_NETWORK[network], [0, ...bech32.toWords(randomBytes(20))]);

export const txid = () => randomBytes(32).toString('hex');
const receipt = (escrow: DemoEscrow) =>
  new File(
    [
      `Wallet transaction receipt\nSent: ${escrow.amount_btc.toFixed(8)} BTC\nTo: ${escrow.assigned_address}\nTransaction: ${txid()}\nStatus: broadcast, waiting for confirmations\n`,
    ],
    'wallet-receipt.txt',
    { type: 'text/plain' },
  );

/** The fields of an escrow answer the demo reads. */
export interface DemoEscrow {
  id: string;
  status: string;
  amount_btc: number;
  assigned_address: string | null;
  proposals: { id: string }[];
}

/** A shipment as the seller records it (contract 7.2). */
export interface DemoShipment {
  method: 'shipping' | 'digital' | 'service';
  carrier?: string;
  tracking?: string;
  note?: string;
}

/** A settlement proposal's terms (contract 7.5). */
export interface DemoProposal {
  kind: 'cancel' | 'refund' | 'split' | 'extend_deadline' | 'extend_inspection';
  seller_percent?: number;
  days?: number;
  note?: string;
}

/** The steps of a deal, each one API call by the party or the admin who would make it. */
export class DemoDeals {
  constructor(
    private readonly call: DemoCall,
    private readonly admin: string,
    private readonly as: (username: string) => string,
    private readonly network: AppDeps['config']['BITCOIN_NETWORK'],
  ) {}

  /**
   * Opened by `creator` (a buyer, unless `by` says seller) with the other party's e-mail; `inspectionDays` left out
   * keeps the default period.
   */
  async open(
    creator: string,
    other: string,
    product: string,
    cents: number,
    options: { by?: 'buyer' | 'seller'; inspectionDays?: number } = {},
  ): Promise<DemoEscrow> {
    const counterparty = options.by === 'seller' ? { buyer_email: emailOf(other) } : { seller_email: emailOf(other) };
    const inspection = options.inspectionDays === undefined ? {} : { inspection_days: options.inspectionDays };
    return this.call<DemoEscrow>(
      'POST',
      '/escrows',
      {
        json: {
          product_service: product,
          description: `${product}. Details agreed by message; shipping or handover within a week.`,
          amount_usd: (cents / 100).toFixed(2),
          deadline_days: 7,
          ...inspection,
          ...counterparty,
        },
      },
      this.as(creator),
    );
  }

  async markPaid(escrow: DemoEscrow, buyer: string, notes: string) {
    const form = new FormData();
    form.set('notes', notes);
    form.set('file', receipt(escrow));
    return this.call<DemoEscrow>('POST', `/escrows/${escrow.id}/mark-paid`, { multipart: form }, this.as(buyer));
  }

  /** Opened by the buyer, paid with a receipt, and verified by the admin. */
  async funded(
    buyer: string,
    seller: string,
    product: string,
    cents: number,
    options: { inspectionDays?: number } = {},
  ): Promise<DemoEscrow> {
    const escrow = await this.open(buyer, seller, product, cents, options);
    await this.markPaid(escrow, buyer, 'Sent, receipt attached');
    return this.call<DemoEscrow>(
      'POST',
      `/admin/escrows/${escrow.id}/verify-payment`,
      { form: { verified: 'true', notes: 'Seen on chain with 3 confirmations', txid: txid() } },
      this.admin,
    );
  }

  /** Funded, agreed to by the seller, shipped, and marked received by the buyer: its inspection period runs. */
  async received(
    buyer: string,
    seller: string,
    product: string,
    cents: number,
    shipment: DemoShipment,
    options: { inspectionDays?: number } = {},
  ): Promise<DemoEscrow> {
    const escrow = await this.funded(buyer, seller, product, cents, options);
    await this.agree(escrow, seller);
    await this.ship(escrow, seller, shipment);
    return this.receive(escrow, buyer);
  }

  /** Make Payment: the buyer asks for a payment address (on a seller-made escrow, after agreeing). */
  async requestPayment(escrow: DemoEscrow, buyer: string) {
    return this.call<DemoEscrow>('POST', `/escrows/${escrow.id}/request-payment`, undefined, this.as(buyer));
  }

  /** The counterparty agrees to the terms. */
  async agree(escrow: DemoEscrow, username: string) {
    return this.call<DemoEscrow>('POST', `/escrows/${escrow.id}/agree`, undefined, this.as(username));
  }

  /** The counterparty declines the terms, saying why. */
  async decline(escrow: DemoEscrow, username: string, reason: string) {
    return this.call<DemoEscrow>('POST', `/escrows/${escrow.id}/decline`, { json: { reason } }, this.as(username));
  }

  async ship(escrow: DemoEscrow, seller: string, shipment: DemoShipment) {
    return this.call<DemoEscrow>('POST', `/escrows/${escrow.id}/ship`, { json: shipment }, this.as(seller));
  }

  async receive(escrow: DemoEscrow, buyer: string) {
    return this.call<DemoEscrow>('POST', `/escrows/${escrow.id}/receive`, undefined, this.as(buyer));
  }

  /** The buyer accepts the goods (within the inspection period, or before any shipment on a legacy deal). */
  async confirmReceipt(escrow: DemoEscrow, buyer: string) {
    return this.call<DemoEscrow>('POST', `/escrows/${escrow.id}/confirm-receipt`, undefined, this.as(buyer));
  }

  /** A party's settlement proposal; answers its id. */
  async propose(escrow: DemoEscrow, username: string, proposal: DemoProposal): Promise<string> {
    const after = await this.call<DemoEscrow>(
      'POST',
      `/escrows/${escrow.id}/proposals`,
      { json: proposal },
      this.as(username),
    );
    return after.proposals.at(-1)!.id;
  }

  /** The other side answers the open proposal: accepts it, or declines it with a reason. */
  async answer(
    escrow: DemoEscrow,
    proposalId: string,
    username: string,
    answer: { accept: true } | { decline: string },
  ) {
    const path = `/escrows/${escrow.id}/proposals/${proposalId}`;
    if ('accept' in answer) return this.call<DemoEscrow>('POST', `${path}/accept`, undefined, this.as(username));
    return this.call<DemoEscrow>('POST', `${path}/decline`, { json: { reason: answer.decline } }, this.as(username));
  }

  /** A message on the escrow's conversation, by a party or (as 'admin') the admin. */
  async say(escrow: DemoEscrow, username: string, text: string) {
    await this.call(
      'POST',
      `/escrows/${escrow.id}/messages`,
      { json: { text } },
      username === 'admin' ? this.admin : this.as(username),
    );
  }

  /** The seller's payout address, or the buyer's refund address (whoever `username` is on this escrow). */
  async payoutAddress(escrow: DemoEscrow, username: string) {
    await this.call(
      'POST',
      `/escrows/${escrow.id}/payout-address`,
      { json: { address: demoAddress(this.network) } },
      this.as(username),
    );
  }

  /** The admin executes the refund or split both parties agreed to: no outcome to write, the terms are theirs. */
  async executeSettlement(escrow: DemoEscrow) {
    return this.call<DemoEscrow>('POST', `/admin/escrows/${escrow.id}/resolve`, { form: { txid: txid() } }, this.admin);
  }

  async resolve(escrow: DemoEscrow, form: Record<string, string>) {
    const disputes = await this.call<{ id: string; escrow_id: string; status: string }[]>(
      'GET',
      '/admin/disputes',
      undefined,
      this.admin,
    );
    const open = disputes.find((d) => d.escrow_id === escrow.id && d.status === 'open');
    if (!open) throw new Error(`no open dispute on escrow ${escrow.id}`);
    await this.call('POST', `/admin/disputes/${open.id}/resolve`, { form }, this.admin);
  }
}

import type { DomainEvent } from '../../domain/events.ts';
import { formatCents } from '../../domain/money.ts';

/**
 * The books of a date range, computed from the log's escrow events alone: one computation shared by the console's
 * Overview and CSV reports (events read from the database) and `verify-export` (events read from an export), so
 * both give the same figures for the same range. Pure: no clock, no I/O.
 */

/** Dates (YYYY-MM-DD, UTC), both included; absent: unbounded. */
export interface BooksRange {
  from?: string | undefined;
  to?: string | undefined;
}

/** What the computation reads of an event: its type and data, its time and stream, its position. */
export type BooksEvent = DomainEvent & { occurred_at: string; stream_id: string; position: number };

/** One share of money paid out: a release, a refund, or a side of a split. */
export interface PayoutShare {
  at: string;
  position: number;
  escrow_id: string;
  kind: 'release' | 'refund' | 'split';
  to: 'seller' | 'buyer';
  address: string | null;
  sats: number;
  usd_cents: number;
  txid: string | null;
}

export interface MonthFigures {
  month: string;
  escrows_created: number;
  escrows_funded: number;
  volume_sats: number;
  volume_cents: number;
  escrows_closed_with_fee: number;
  fee_sats: number;
  fee_cents: number;
}

export interface Books {
  range: { from: string | null; to: string | null };
  escrows_created: number;
  escrows_funded: number;
  /** What the escrows funded in the range were worth. */
  volume_sats: number;
  volume_cents: number;
  /** Fees taken at the payouts in the range (in USD at each escrow's rate). */
  fee_sats: number;
  fee_cents: number;
  released_sats: number;
  refunded_sats: number;
  disputes_opened: number;
  /** Disputes opened in the range per escrow funded in it (0 when none was funded). */
  dispute_rate: number;
  /** Medians over the escrows verified (released) in the range; null when there was none. */
  median_marked_to_verified_seconds: number | null;
  median_confirmed_to_released_seconds: number | null;
  by_month: MonthFigures[];
  payouts: PayoutShare[];
}

interface EscrowFacts {
  amount_sats: number;
  amount_cents: number;
  rate_cents: number;
  marked_at: string | null;
  confirmed_at: string | null;
}

const idOf = (streamId: string) => streamId.slice(streamId.indexOf(':') + 1);
const dayOf = (iso: string) => iso.slice(0, 10);
const monthOf = (iso: string) => iso.slice(0, 7);
const seconds = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 1000);

/** Satoshis in US cents at a rate in cents per BTC, rounded half up (integers throughout). */
export const satsToCents = (sats: number, rateCents: number) =>
  Number((BigInt(sats) * BigInt(rateCents) + 50_000_000n) / 100_000_000n);

/** Cents as a plain decimal for files: 123456 -> "1234.56". */
export const centsText = (cents: number) => formatCents(cents);

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : Math.round((sorted[middle - 1]! + sorted[middle]!) / 2);
}

/** Feeds escrow events in log order (every one from the start: an escrow's amounts come from its creation). */
export class BooksCalculator {
  private readonly escrows = new Map<string, EscrowFacts>();
  private readonly months = new Map<string, MonthFigures>();
  private readonly toVerify: number[] = [];
  private readonly toRelease: number[] = [];
  private readonly books: Books;

  constructor(private readonly range: BooksRange = {}) {
    this.books = {
      range: { from: range.from ?? null, to: range.to ?? null },
      escrows_created: 0,
      escrows_funded: 0,
      volume_sats: 0,
      volume_cents: 0,
      fee_sats: 0,
      fee_cents: 0,
      released_sats: 0,
      refunded_sats: 0,
      disputes_opened: 0,
      dispute_rate: 0,
      median_marked_to_verified_seconds: null,
      median_confirmed_to_released_seconds: null,
      by_month: [],
      payouts: [],
    };
  }

  private inRange(at: string): boolean {
    const day = dayOf(at);
    return (
      (this.range.from === undefined || day >= this.range.from) && (this.range.to === undefined || day <= this.range.to)
    );
  }

  private month(at: string): MonthFigures {
    const key = monthOf(at);
    let figures = this.months.get(key);
    if (!figures) {
      figures = {
        month: key,
        escrows_created: 0,
        escrows_funded: 0,
        volume_sats: 0,
        volume_cents: 0,
        escrows_closed_with_fee: 0,
        fee_sats: 0,
        fee_cents: 0,
      };
      this.months.set(key, figures);
    }
    return figures;
  }

  add(event: BooksEvent): void {
    if (!event.stream_id.startsWith('escrow:')) return;
    const id = idOf(event.stream_id);
    if (event.type === 'EscrowCreated') {
      const d = event.data;
      this.escrows.set(id, {
        amount_sats: d.amount_sats,
        amount_cents: d.amount_cents,
        rate_cents: d.rate_cents,
        marked_at: null,
        confirmed_at: null,
      });
    }
    const escrow = this.escrows.get(id);
    if (!escrow) return;
    const at = event.occurred_at;
    if (event.type === 'PaymentMarked') escrow.marked_at = at;
    if (event.type === 'ReceiptConfirmed') escrow.confirmed_at = at;
    if (!this.inRange(at)) return;
    switch (event.type) {
      case 'EscrowCreated':
        this.books.escrows_created++;
        this.month(at).escrows_created++;
        return;
      case 'PaymentVerified': {
        this.books.escrows_funded++;
        this.books.volume_sats += escrow.amount_sats;
        this.books.volume_cents += escrow.amount_cents;
        const month = this.month(at);
        month.escrows_funded++;
        month.volume_sats += escrow.amount_sats;
        month.volume_cents += escrow.amount_cents;
        if (escrow.marked_at) this.toVerify.push(seconds(escrow.marked_at, at));
        return;
      }
      case 'DisputeOpened':
        this.books.disputes_opened++;
        return;
      case 'EscrowReleased':
        if (escrow.confirmed_at) this.toRelease.push(seconds(escrow.confirmed_at, at));
        this.payout(
          event.position,
          id,
          at,
          escrow,
          'release',
          { seller: event.data.seller_sats, buyer: 0 },
          event.data.fee_sats,
          event.data.txid,
          event.data.destinations,
        );
        return;
      case 'EscrowRefunded':
        this.payout(
          event.position,
          id,
          at,
          escrow,
          'refund',
          { seller: 0, buyer: event.data.buyer_sats },
          event.data.fee_sats,
          event.data.txid,
          event.data.destinations,
        );
        return;
      case 'DisputeResolved': {
        const { resolution } = event.data;
        if (resolution === null) return;
        if (resolution === 'release' && escrow.confirmed_at) this.toRelease.push(seconds(escrow.confirmed_at, at));
        this.payout(
          event.position,
          id,
          at,
          escrow,
          resolution,
          { seller: event.data.seller_sats, buyer: event.data.buyer_sats },
          event.data.fee_sats,
          event.data.txid,
          event.data.destinations,
        );
        return;
      }
      default:
        return;
    }
  }

  private payout(
    position: number,
    escrowId: string,
    at: string,
    escrow: EscrowFacts,
    kind: PayoutShare['kind'],
    shares: { seller: number; buyer: number },
    feeSats: number,
    txid: string | null,
    destinations: readonly { to: 'seller' | 'buyer'; address: string; sats: number }[] | undefined,
  ): void {
    for (const to of ['seller', 'buyer'] as const) {
      const sats = shares[to];
      if (sats <= 0) continue;
      const address = destinations?.find((d) => d.to === to)?.address ?? null;
      this.books.payouts.push({
        at,
        position,
        escrow_id: escrowId,
        kind,
        to,
        address,
        sats,
        usd_cents: satsToCents(sats, escrow.rate_cents),
        txid,
      });
      if (to === 'seller') this.books.released_sats += sats;
      else this.books.refunded_sats += sats;
    }
    const feeCents = satsToCents(feeSats, escrow.rate_cents);
    this.books.fee_sats += feeSats;
    this.books.fee_cents += feeCents;
    const month = this.month(at);
    month.escrows_closed_with_fee++;
    month.fee_sats += feeSats;
    month.fee_cents += feeCents;
  }

  result(): Books {
    return {
      ...this.books,
      dispute_rate: this.books.escrows_funded
        ? Math.round((this.books.disputes_opened / this.books.escrows_funded) * 10_000) / 10_000
        : 0,
      median_marked_to_verified_seconds: median(this.toVerify),
      median_confirmed_to_released_seconds: median(this.toRelease),
      by_month: [...this.months.values()].sort((a, b) => a.month.localeCompare(b.month)),
    };
  }
}

/** The books of `events` (in log order) over `range`. */
export function computeBooks(events: Iterable<BooksEvent>, range: BooksRange = {}): Books {
  const calculator = new BooksCalculator(range);
  for (const event of events) calculator.add(event);
  return calculator.result();
}

/** The figures a person reads (verify-export prints them; the Overview shows the same). */
export function formatBooks(books: Books): string[] {
  const range = `${books.range.from ?? 'the start'} to ${books.range.to ?? 'the end'}`;
  const duration = (s: number | null) => (s === null ? 'none' : `${(s / 3600).toFixed(1)} h`);
  return [
    `Books from ${range}:`,
    `  escrows created ${books.escrows_created}, funded ${books.escrows_funded}`,
    `  volume ${books.volume_sats} sats (USD ${centsText(books.volume_cents)})`,
    `  fees ${books.fee_sats} sats (USD ${centsText(books.fee_cents)})`,
    `  released ${books.released_sats} sats, refunded ${books.refunded_sats} sats`,
    `  disputes opened ${books.disputes_opened} (rate ${(books.dispute_rate * 100).toFixed(2)}%)`,
    `  median marked to verified ${duration(books.median_marked_to_verified_seconds)}, confirmed to released ${duration(books.median_confirmed_to_released_seconds)}`,
  ];
}

/**
 * The one place the web app turns amounts and times into text. Amounts go through domain/money.ts, as in mail, so a
 * screen and a mail about the same escrow read the same.
 */
import { btcNumberToSats, displayBtc, displayUsd, usdNumberToCents } from '../../../domain/money.ts';
import { displayUtc } from '../../../domain/shared/display-time.ts';

/** The API's USD number (2 decimals) → "$2,029.99". */
export const formatUsd = (amount: number) => displayUsd(usdNumberToCents(amount));

/** Satoshis → "0.03123062 BTC". */
export const formatBtc = (sats: number) => displayBtc(sats);

/** The API's BTC number (8 decimals) → "0.03123062 BTC". */
export const formatBtcAmount = (amount: number) => displayBtc(btcNumberToSats(amount));

const dateOnly = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

/** "24 Nov 2026, 15:49 UTC" (the same words as in mail). */
export const formatDateTime = (iso: string) => displayUtc(iso);

/** "24 Nov 2026" */
export const formatDate = (iso: string) => dateOnly.format(new Date(iso));

/** "just now", "5 minutes ago", "3 hours ago", "2 days ago": how old a value is (e.g. the BTC rate). */
export function formatAge(iso: string, now: Date = new Date()): string {
  const seconds = Math.max(0, Math.round((now.getTime() - new Date(iso).getTime()) / 1000));
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'} ago`;
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return unit(Math.floor(seconds / 60), 'minute');
  if (seconds < 86_400) return unit(Math.floor(seconds / 3600), 'hour');
  return unit(Math.floor(seconds / 86_400), 'day');
}

/** A file's size as its page shows it: "512 B", "2.0 KB", "1.5 MB". */
export const formatBytes = (bytes: number) =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 ** 2
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${(bytes / 1024 ** 2).toFixed(1)} MB`;

/** The console's tabs, in the order they are shown: the overview, the spec's seven, then settings, the ledger and webhooks. */
export const ADMIN_TABS = [
  { id: 'overview', label: 'Overview' },
  { id: 'verifications', label: 'Verifications' },
  { id: 'escrows', label: 'Escrows' },
  { id: 'disputes', label: 'Disputes' },
  { id: 'addresses', label: 'Addresses' },
  { id: 'users', label: 'Users' },
  { id: 'reviews', label: 'Reviews' },
  { id: 'audit', label: 'Audit' },
  { id: 'settings', label: 'Settings' },
  { id: 'ledger', label: 'Ledger' },
  { id: 'webhooks', label: 'Webhooks' },
] as const;

export type AdminTab = (typeof ADMIN_TABS)[number]['id'];

/** The overview is where an admin starts when the link names no tab (or one that does not exist). */
export const DEFAULT_TAB: AdminTab = 'overview';

export const tabOf = (value: string | null): AdminTab => ADMIN_TABS.find((t) => t.id === value)?.id ?? DEFAULT_TAB;

/** Below this many free addresses the Addresses tab shows its count (the server mails the admins at the same mark). */
export const LOW_POOL = 3;

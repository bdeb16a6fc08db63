const labels: Record<string, string> = {
  pending_payment: 'Pending payment',
  funded: 'Funded',
  released: 'Released',
  disputed: 'Disputed',
  frozen: 'Frozen',
  cancelled: 'Cancelled',
  refunded: 'Refunded',
};

/** Contract colours: yellow, green, blue, red, purple, grey; refunded teal. */
export function StatusBadge({ status, label }: { status: string; label?: string }) {
  return <span className={`badge badge-${status}`}>{label ?? labels[status] ?? status}</span>;
}

/** The spec's loading text, announced politely to screen readers. */
export function Loading({ label = 'Loading...' }: { label?: string }) {
  return (
    <p className="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {label}
    </p>
  );
}

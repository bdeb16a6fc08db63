import type { ReactNode } from 'react';

/** One fact of an escrow: its name and its value, in a `FactsList`. */
export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** The facts of one part of an escrow (the deal, the money, the delivery...), each a name and its value. */
export function FactsList({ children }: { children: ReactNode }) {
  return <dl className="facts-list">{children}</dl>;
}

import { PanelHead } from '../shared/panel-head.tsx';
import { ChainCard } from './components/chain-card.tsx';
import { EventLog } from './components/event-log.tsx';
import { ExportCard } from './components/export-card.tsx';
import { ReplayCard } from './components/replay-card.tsx';

/** Ledger: the hash-chained log itself: its head and check, replay, export, and the raw events. */
export function LedgerPanel() {
  return (
    <>
      <PanelHead title="Ledger">
        The log every screen is built from: each event carries the hash of the one before it.
      </PanelHead>
      <div className="ledger-grid">
        <ChainCard />
        <ReplayCard />
        <ExportCard />
      </div>
      <EventLog />
    </>
  );
}

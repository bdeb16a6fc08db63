import { useState } from 'react';
import type { Overview } from '../../../../../contract/reports.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { formatBtc } from '../../../lib/format.ts';
import { displayUsd } from '../../../../../domain/money.ts';
import { PanelHead } from '../shared/panel-head.tsx';
import { type ReportRange, useOverview } from './api/get-overview.ts';
import { MonthChart } from './components/month-chart.tsx';
import { ReportDownloads } from './components/report-downloads.tsx';
import './overview.css';

const hours = (seconds: number | null) =>
  seconds === null
    ? 'none yet'
    : seconds < 3600
      ? `${Math.round(seconds / 60)} min`
      : `${(seconds / 3600).toFixed(1)} h`;
const STATUS_WORDS: Record<string, string> = {
  pending_payment: 'Awaiting payment',
  payment_marked: 'Payment marked',
  funded: 'Funded',
  disputed: 'Disputed',
  frozen: 'Frozen',
  released: 'Released',
  refunded: 'Refunded',
  cancelled: 'Cancelled',
  expired: 'Expired',
};

function Figures({ o }: { o: Overview }) {
  const figures: [string, string, string?][] = [
    [
      'Volume funded',
      displayUsd(o.volume_cents),
      `${formatBtc(o.volume_sats)} in ${o.escrows_funded} escrow${o.escrows_funded === 1 ? '' : 's'}`,
    ],
    ['Fees taken', displayUsd(o.fee_cents), formatBtc(o.fee_sats)],
    ['Escrows opened', String(o.escrows_created)],
    ['Dispute rate', `${(o.dispute_rate * 100).toFixed(1)}%`, `${o.disputes_opened} opened`],
    ['Marked to verified', hours(o.median_marked_to_verified_seconds), 'median'],
    ['Confirmed to released', hours(o.median_confirmed_to_released_seconds), 'median'],
  ];
  return (
    <dl className="overview-figures">
      {figures.map(([label, value, note]) => (
        <div key={label} className="card overview-figure">
          <dt>{label}</dt>
          <dd>
            <strong>{value}</strong>
            {note && <span className="muted small">{note}</span>}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function StatusBars({ counts }: { counts: Record<string, number> }) {
  const entries = Object.entries(counts).sort((a, b) => b[1] - a[1]);
  const max = Math.max(1, ...entries.map(([, n]) => n));
  if (entries.length === 0) return <p className="muted">No escrow was opened in this range.</p>;
  return (
    <ul className="status-bars">
      {entries.map(([status, n]) => (
        <li key={status}>
          <span className="status-bar-label">{STATUS_WORDS[status] ?? status}</span>
          <span className="status-bar-track" aria-hidden="true">
            <span className="status-bar-fill" style={{ width: `${(n / max) * 100}%` }} />
          </span>
          <span className="status-bar-count">{n}</span>
        </li>
      ))}
    </ul>
  );
}

/** Overview: how the business is doing over a range, from the log (the figures verify-export prints), and the pool. */
export function OverviewPanel() {
  const [draft, setDraft] = useState<ReportRange>({ from: '', to: '' });
  const [range, setRange] = useState<ReportRange>({ from: '', to: '' });
  const overview = useOverview(range);
  return (
    <>
      <PanelHead title="Overview">
        Volume, fees and how escrows move, computed from the log: the same figures verify-export prints for the same
        range.
      </PanelHead>
      <form
        className="overview-range"
        onSubmit={(event) => {
          event.preventDefault();
          setRange(draft);
        }}
      >
        <Field label="From" hint="Blank: from the start">
          <input
            type="date"
            value={draft.from}
            max={draft.to || undefined}
            onChange={(e) => setDraft({ ...draft, from: e.target.value })}
          />
        </Field>
        <Field label="To" hint="Blank: up to now">
          <input
            type="date"
            value={draft.to}
            min={draft.from || undefined}
            onChange={(e) => setDraft({ ...draft, to: e.target.value })}
          />
        </Field>
        <Button type="submit" variant="secondary" busy={overview.isFetching}>
          Show
        </Button>
      </form>
      <QueryState query={overview} errorFallback="Failed to load the overview">
        {(o) => (
          <div className="overview">
            <Figures o={o} />
            <section className="card" aria-labelledby="months-heading">
              <h3 id="months-heading">Volume and fees per month</h3>
              {o.by_month.length === 0 ? (
                <p className="muted">Nothing happened in this range.</p>
              ) : (
                <>
                  <MonthChart months={o.by_month} />
                  <table className="overview-table">
                    <caption className="visually-hidden">Per month</caption>
                    <thead>
                      <tr>
                        <th scope="col">Month</th>
                        <th scope="col">Opened</th>
                        <th scope="col">Funded</th>
                        <th scope="col">Volume</th>
                        <th scope="col">Fees</th>
                      </tr>
                    </thead>
                    <tbody>
                      {o.by_month.map((m) => (
                        <tr key={m.month}>
                          <th scope="row">{m.month}</th>
                          <td>{m.escrows_created}</td>
                          <td>{m.escrows_funded}</td>
                          <td>{displayUsd(m.volume_cents)}</td>
                          <td>{displayUsd(m.fee_cents)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </>
              )}
            </section>
            <div className="overview-pair">
              <section className="card" aria-labelledby="status-heading">
                <h3 id="status-heading">Escrows by status</h3>
                <p className="muted small">Opened in the range, where they stand now.</p>
                <StatusBars counts={o.escrows_by_status} />
              </section>
              <section className="card" aria-labelledby="pool-heading">
                <h3 id="pool-heading">Address pool</h3>
                <dl className="facts">
                  <dt>Free</dt>
                  <dd>
                    <strong>{o.pool.available}</strong>
                    {o.pool.available < 3 && <span className="pool-low"> low: add addresses</span>}
                  </dd>
                  <dt>Assigned to open escrows</dt>
                  <dd>{o.pool.assigned}</dd>
                  <dt>Used</dt>
                  <dd>{o.pool.used}</dd>
                </dl>
              </section>
            </div>
            <ReportDownloads range={range} />
          </div>
        )}
      </QueryState>
    </>
  );
}

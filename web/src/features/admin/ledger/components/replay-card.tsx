import { messageOf } from '../../../../api/client.ts';
import { Button } from '../../../../components/ui/button.tsx';
import { type Column, DataTable } from '../../../../components/ui/data-table.tsx';
import { Message } from '../../../../components/ui/message.tsx';
import { type ReplayReport, useReplay } from '../api/replay.ts';

/** One read model: its rows live and rebuilt from the log. */
type ComparedTable = ReplayReport['tables'][number];

const COLUMNS: Column<ComparedTable>[] = [
  { header: 'Read model', className: 'mono', cell: (t) => t.table },
  { header: 'Live rows', cell: (t) => t.liveRows },
  { header: 'Rebuilt rows', cell: (t) => t.rebuiltRows },
  {
    header: 'Result',
    cell: (t) => (t.match ? 'match' : `differs (${t.onlyLive.length} live only, ${t.onlyRebuilt.length} rebuilt only)`),
  },
];

/** Replay: rebuild every read model from the log and say whether it equals what the API serves. */
export function ReplayCard() {
  const replay = useReplay();
  const report = replay.data;
  return (
    <section className="card stack" aria-labelledby="replay-title">
      <h3 id="replay-title">Replay</h3>
      <p className="small muted">
        Rebuilds every read model from the events and compares it with the live one, naming the first rows that differ.
        Nothing is replaced.
      </p>
      <div>
        <Button variant="secondary" busy={replay.isPending} onClick={() => replay.mutate()}>
          Replay the log
        </Button>
      </div>
      {replay.isError && <Message tone="error">{messageOf(replay.error, 'Failed to replay the log')}</Message>}
      {report && (
        <div aria-live="polite">
          <Message tone={report.match ? 'success' : 'error'}>
            {report.match ? 'Match' : 'Mismatch'}: {report.events} events replayed in {report.seconds.toFixed(2)} s (
            {Math.round(report.eventsPerSecond)} events/s).
          </Message>
          <DataTable
            caption="Read models compared"
            className="compact-table"
            columns={COLUMNS}
            rows={report.tables}
            rowKey={(t) => t.table}
          />
        </div>
      )}
    </section>
  );
}

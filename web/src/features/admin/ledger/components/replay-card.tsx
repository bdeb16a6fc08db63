import { messageOf } from '../../../../api/client.ts';
import { Button } from '../../../../components/ui/button.tsx';
import { Message } from '../../../../components/ui/message.tsx';
import { useReplay } from '../api/replay.ts';

/** Replay: rebuild every read model from the log and say whether it equals what the API serves. */
export function ReplayCard() {
  const replay = useReplay();
  const report = replay.data;
  return (
    <section className="card stack" aria-labelledby="replay-title">
      <h3 id="replay-title">Replay</h3>
      <p className="small muted">
        Rebuilds every read model from the events in scratch tables and compares them row by row with the live ones.
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
          <table className="admin-table compact-table">
            <caption className="visually-hidden">Read models compared</caption>
            <thead>
              <tr>
                <th scope="col">Read model</th>
                <th scope="col">Live rows</th>
                <th scope="col">Rebuilt rows</th>
                <th scope="col">Result</th>
              </tr>
            </thead>
            <tbody>
              {report.tables.map((t) => (
                <tr key={t.table}>
                  <td data-label="Read model" className="mono">
                    {t.table}
                  </td>
                  <td data-label="Live rows">{t.liveRows}</td>
                  <td data-label="Rebuilt rows">{t.rebuiltRows}</td>
                  <td data-label="Result">
                    {t.match
                      ? 'match'
                      : `differs (${t.onlyLive.length} live only, ${t.onlyRebuilt.length} rebuilt only)`}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

import { Download } from 'lucide-react';
import { messageOf } from '../../../../api/client.ts';
import { Button } from '../../../../components/ui/button.tsx';
import { Message } from '../../../../components/ui/message.tsx';
import { type ReportName, useDownloadReport } from '../api/download-report.ts';
import type { ReportRange } from '../api/get-overview.ts';

const REPORTS: { name: ReportName; what: string }[] = [
  { name: 'escrows', what: 'every escrow opened in the range, with its amounts and status' },
  { name: 'payouts', what: 'every release, refund and split share: time, escrow, address, satoshis, USD, txid' },
  { name: 'fees', what: 'the fees taken per month' },
];

/** Reports: the range's CSV files for the books (RFC 4180, a header row; opens in any spreadsheet). */
export function ReportDownloads({ range }: { range: ReportRange }) {
  const download = useDownloadReport();
  return (
    <section className="card overview-reports" aria-labelledby="reports-heading">
      <h3 id="reports-heading">Reports</h3>
      <p className="muted">CSV files for the range above, for the books.</p>
      <ul className="report-list">
        {REPORTS.map(({ name, what }) => (
          <li key={name}>
            <Button
              variant="secondary"
              busy={download.isPending && download.variables?.name === name}
              onClick={() => download.mutate({ name, range })}
            >
              <Download size={16} aria-hidden="true" /> {name}.csv
            </Button>
            <span className="muted small">{what}</span>
          </li>
        ))}
      </ul>
      {download.isError && <Message tone="error">{messageOf(download.error, 'Failed to download the report')}</Message>}
    </section>
  );
}

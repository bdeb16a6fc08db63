import { useMutation } from '@tanstack/react-query';
import { getFile } from '../../../../lib/get-file.ts';
import { saveBlob } from '../../../../lib/save-blob.ts';
import { type ReportRange, rangeQuery } from './get-overview.ts';

export type ReportName = 'escrows' | 'payouts' | 'fees';

/** GET /api/admin/reports/{name}.csv for the range, saved as a file. */
export async function downloadReport(name: ReportName, range: ReportRange): Promise<void> {
  const blob = await getFile(`/admin/reports/${name}.csv${rangeQuery(range)}`, `Failed to download ${name}.csv`);
  saveBlob(blob, `${name}-${range.from || 'start'}-to-${range.to || 'now'}.csv`);
}

export const useDownloadReport = () =>
  useMutation({
    mutationFn: ({ name, range }: { name: ReportName; range: ReportRange }) => downloadReport(name, range),
  });

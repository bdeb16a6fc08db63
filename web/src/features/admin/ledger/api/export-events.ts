import { useMutation } from '@tanstack/react-query';
import { getFile } from '../../../../lib/get-file.ts';
import { saveBlob } from '../../../../lib/save-blob.ts';

/** The log as NDJSON (a header line, then one line per event with its hash), saved as a file to verify offline. */
export async function exportEvents({ from, to }: { from: string; to: string }): Promise<void> {
  const query = new URLSearchParams();
  if (from.trim()) query.set('from', from.trim());
  if (to.trim()) query.set('to', to.trim());
  const blob = await getFile(`/admin/events/export${query.size ? `?${query}` : ''}`, 'Failed to export the events');
  const range = from.trim() || to.trim() ? `-${from.trim() || '1'}-${to.trim() || 'head'}` : '';
  saveBlob(blob, `events${range}.ndjson`);
}

export const useExportEvents = () => useMutation({ mutationFn: exportEvents });

import { Download } from 'lucide-react';
import type { ReactNode } from 'react';
import { messageOf } from '../../api/client.ts';
import { useDownload, type FileToSave } from '../../hooks/use-download.ts';
import { Button } from './button.tsx';
import { Message } from './message.tsx';

/** A button that saves one session-only file, busy while it downloads, with the failure said beside it. */
export function DownloadButton({
  file,
  variant = 'secondary',
  children,
}: {
  file: FileToSave;
  variant?: 'secondary' | 'ghost';
  children: ReactNode;
}) {
  const download = useDownload();
  return (
    <>
      <Button variant={variant} busy={download.isPending} onClick={() => download.mutate(file)}>
        <Download size={16} aria-hidden="true" /> {children}
      </Button>
      {download.isError && <Message tone="error">{messageOf(download.error, 'Failed to download the file')}</Message>}
    </>
  );
}

import { useMutation } from '@tanstack/react-query';
import { getFile } from '../../../lib/get-file.ts';
import { saveBlob } from '../../../lib/save-blob.ts';
import type { EvidenceFile } from './types.ts';

/** Saves an evidence file of this escrow (served only with the session, so fetched, then handed to the browser). */
export const useDownloadEvidence = () =>
  useMutation({
    mutationFn: async (file: Pick<EvidenceFile, 'file_path' | 'filename'>) =>
      saveBlob(await getFile(file.file_path, 'Failed to download the file'), file.filename),
  });

import { useMutation } from '@tanstack/react-query';
import { getFile } from '../lib/get-file.ts';
import { saveBlob } from '../lib/save-blob.ts';

export interface FileToSave {
  /** Under /api, as the API gives evidence and attachment URLs. */
  path: string;
  filename: string;
}

/**
 * Saves a file the API serves only with the session (payment evidence, a message's attachment): fetched with the
 * token, then handed to the browser under its name.
 */
export const useDownload = () =>
  useMutation({
    mutationFn: async ({ path, filename }: FileToSave) =>
      saveBlob(await getFile(path, 'Failed to download the file'), filename),
  });

import { queryOptions, useQuery } from '@tanstack/react-query';
import { getFile } from '../../../../lib/get-file.ts';
import { ADMIN_KEY } from '../admin-mutation.ts';

export const fileQueryOptions = (path: string) =>
  queryOptions({
    queryKey: [ADMIN_KEY, 'file', path],
    queryFn: ({ signal }) => getFile(path, 'Failed to load the file', signal),
    staleTime: Infinity,
  });

/** The file's bytes, for a preview (kept: evidence never changes). */
export const useFile = (path: string, enabled = true) => useQuery({ ...fileQueryOptions(path), enabled });

import { ApiError, sessionToken } from '../api/client.ts';

/**
 * A file the API serves only with the session (evidence, the event export): fetched with the bearer token as a
 * Blob, since an <img src> or a plain link cannot send it. `path` is under /api (as evidence `url`s are given).
 */
export async function getFile(path: string, fallback: string, signal?: AbortSignal): Promise<Blob> {
  const token = sessionToken.get();
  let res: Response;
  try {
    res = await fetch(path.startsWith('/api/') ? path : `/api${path}`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, fallback);
  }
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { detail?: unknown; code?: unknown } | null;
    throw new ApiError(
      res.status,
      typeof body?.detail === 'string' ? body.detail : fallback,
      typeof body?.code === 'string' ? body.code : null,
    );
  }
  return res.blob();
}

import { useEffect, useState } from 'react';

export type ServiceStatus = 'checking' | 'ready' | 'unavailable';

/** Asks the server whether it can take requests (database reachable, migrations applied). */
export function useServiceStatus(): ServiceStatus {
  const [status, setStatus] = useState<ServiceStatus>('checking');
  useEffect(() => {
    const controller = new AbortController();
    fetch('/api/ready', { signal: controller.signal })
      .then((res) => setStatus(res.ok ? 'ready' : 'unavailable'))
      .catch(() => {
        if (!controller.signal.aborted) setStatus('unavailable');
      });
    return () => controller.abort();
  }, []);
  return status;
}

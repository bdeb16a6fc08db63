import { useCallback, useEffect, useState } from 'react';

export interface Notice {
  tone: 'success' | 'error';
  text: string;
}

const SUCCESS_MS = 3000;

/** The panel's last outcome (spec: success messages disappear after 3 seconds; errors stay until the next action). */
export function useNotice() {
  const [notice, setNotice] = useState<Notice | null>(null);
  useEffect(() => {
    if (notice?.tone !== 'success') return;
    const timer = setTimeout(() => setNotice(null), SUCCESS_MS);
    return () => clearTimeout(timer);
  }, [notice]);
  const success = useCallback((text: string) => setNotice({ tone: 'success', text }), []);
  const failure = useCallback((text: string) => setNotice({ tone: 'error', text }), []);
  return { notice, success, failure, clear: useCallback(() => setNotice(null), []) };
}

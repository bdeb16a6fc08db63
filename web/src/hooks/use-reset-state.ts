import { type Dispatch, type SetStateAction, useState } from 'react';

/**
 * Form state that starts again from `initial` whenever `key` changes (another row's dialog opened, the dialog closed),
 * adjusted during render as React recommends rather than in an effect.
 */
export function useResetState<T>(key: unknown, initial: () => T): [T, Dispatch<SetStateAction<T>>] {
  const [state, setState] = useState(initial);
  const [seen, setSeen] = useState(key);
  if (!Object.is(key, seen)) {
    setSeen(key);
    setState(initial);
  }
  return [state, setState];
}

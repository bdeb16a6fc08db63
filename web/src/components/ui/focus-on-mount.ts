import { type RefObject, useEffect, useRef } from 'react';

/**
 * A heading (tabIndex -1) that takes focus when it appears: where a step of a flow replaces the button that led to
 * it, focus would otherwise fall back to the page's start and a keyboard or screen-reader user would lose their place.
 */
export function useFocusOnMount<T extends HTMLElement>(): RefObject<T | null> {
  const ref = useRef<T>(null);
  useEffect(() => ref.current?.focus(), []);
  return ref;
}

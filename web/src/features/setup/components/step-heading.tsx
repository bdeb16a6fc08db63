import type { ReactNode } from 'react';
import { useFocusOnMount } from '../../../components/ui/focus-on-mount.ts';

/**
 * A set-up step's heading, which takes focus when the step appears: each step replaces the button that led to it,
 * so a keyboard or screen-reader user goes on from the new step's start instead of the page's.
 */
export function StepHeading({ children }: { children: ReactNode }) {
  const heading = useFocusOnMount<HTMLHeadingElement>();
  return (
    <h2 ref={heading} tabIndex={-1}>
      {children}
    </h2>
  );
}

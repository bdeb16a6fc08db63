import { useEffect, useEffectEvent, useState } from 'react';
import { type EscrowClock, nextClockChange } from '../../../domain/escrow/clock.ts';

/** setTimeout's longest delay; a longer one would fire at once. */
const MAX_DELAY_MS = 2 ** 31 - 1;

/** Waited past a clock time before asking the server, whose clock decides, so a browser a little ahead is not early. */
const SERVER_CLOCK_SLACK_MS = 2000;

/**
 * Renders again when the next of an escrow's clock times passes (a replaced address's hold ends, the inspection
 * period ends: what the escrow allows changes then with no event) and calls `onPass`, to ask the server again. A page
 * left open then shows what is true now instead of what was true when it was read.
 */
export function useClockChange(escrow: EscrowClock | undefined, onPass: () => void): void {
  const [now, setNow] = useState(() => Date.now());
  const passed = useEffectEvent(onPass);
  const next = escrow ? nextClockChange(escrow, now) : null;
  useEffect(() => {
    if (next === null) return;
    const timer = setTimeout(
      () => {
        const at = Date.now();
        setNow(at);
        if (at >= next) passed();
      },
      Math.min(next - now + SERVER_CLOCK_SLACK_MS, MAX_DELAY_MS),
    );
    return () => clearTimeout(timer);
  }, [next, now]);
}

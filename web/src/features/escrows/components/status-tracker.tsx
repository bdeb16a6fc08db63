import { Check } from 'lucide-react';
import type { TrackerStep } from '../model/tracker-steps.ts';

const SAY: Record<TrackerStep['state'], string> = {
  done: 'done',
  current: 'next',
  upcoming: 'to come',
  skipped: 'skipped',
  halted: 'waiting for an admin',
};

/** Where the deal stands: each step done, next, to come or skipped. */
export function StatusTracker({ steps }: { steps: TrackerStep[] }) {
  return (
    <ol className="tracker" aria-label="Progress">
      {steps.map((step, index) => (
        <li
          key={step.label}
          className={`tracker-step tracker-${step.state}`}
          aria-current={step.state === 'current' ? 'step' : undefined}
        >
          <span className="tracker-dot" aria-hidden="true">
            {step.state === 'done' ? <Check size={14} /> : step.state === 'halted' ? '!' : index + 1}
          </span>
          <span className="tracker-label">
            {step.label}
            <span className="visually-hidden"> ({SAY[step.state]})</span>
          </span>
        </li>
      ))}
    </ol>
  );
}

import { Check } from 'lucide-react';
import type { TrackerStep } from '../model/escrow-progress.ts';

const SAY: Record<TrackerStep['state'], string> = { done: 'done', current: 'next', upcoming: 'to come', skipped: 'skipped' };

/** Where the deal stands: each step done, next, to come or skipped. */
export function StatusTracker({ steps }: { steps: TrackerStep[] }) {
  return (
    <ol className="tracker" aria-label="Progress">
      {steps.map((step, index) => (
        <li key={step.label} className={`tracker-step tracker-${step.state}`} aria-current={step.state === 'current' ? 'step' : undefined}>
          <span className="tracker-dot" aria-hidden="true">
            {step.state === 'done' ? <Check size={14} /> : index + 1}
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

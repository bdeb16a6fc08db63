import { StepHeading } from './step-heading.tsx';
import { ButtonLink } from '../../../components/ui/button.tsx';

/** Step 3: what the service needs before anyone can open an escrow, each a link into the console. */
export function NextSteps() {
  return (
    <div className="setup-step">
      <StepHeading>Next: make the service ready for deals</StepHeading>
      <ol className="setup-next">
        <li>
          <strong>Set the BTC/USD rate</strong> (and the fee). Until a rate is set, nobody can open an escrow.
          <div>
            <ButtonLink to="/admin?tab=settings">Set the rate</ButtonLink>
          </div>
        </li>
        <li>
          <strong>Add payment addresses</strong> to the pool: buyers are given one each. Keep at least three available.
          <div>
            <ButtonLink to="/admin?tab=addresses" variant="secondary">
              Add addresses
            </ButtonLink>
          </div>
        </li>
      </ol>
    </div>
  );
}

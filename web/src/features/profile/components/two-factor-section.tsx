import { ShieldCheck, ShieldOff } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import type { Me as CurrentUser } from '../../../../../contract/users.ts';
import { messageOf } from '../../../api/client.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Message } from '../../../components/ui/message.tsx';
import { type TwoFactorSetup as Setup, useSetupTwoFactor } from '../../../auth/two-factor-api.ts';
import { DisableTwoFactorForm } from './disable-two-factor-form.tsx';
import { codesLeftText, NewRecoveryCodesDialog } from './new-recovery-codes-dialog.tsx';
import { RecoveryCodes } from '../../../components/two-factor/recovery-codes.tsx';
import { TwoFactorSetup } from './two-factor-setup.tsx';

/** Where the 2FA flow stands on this page: nothing under way, a secret drawn and awaiting a code, or codes to save. */
type Stage =
  | { kind: 'idle'; notice?: string; focusHeading?: boolean }
  | { kind: 'setup'; setup: Setup }
  | { kind: 'codes'; codes: string[] };

/** 2FA: off -> set up (QR and key) -> verified (recovery codes shown once) -> on -> off again with a code. */
export function TwoFactorSection({ user }: { user: CurrentUser }) {
  const [stage, setStage] = useState<Stage>({ kind: 'idle' });
  const setup = useSetupTwoFactor();
  const enabled = user.totp_enabled;
  const heading = useRef<HTMLHeadingElement>(null);
  // Saving the codes or turning 2FA off removes the button that had focus: the section's heading takes it.
  useEffect(() => {
    if (stage.kind === 'idle' && stage.focusHeading) heading.current?.focus();
  }, [stage]);

  const body = (() => {
    if (stage.kind === 'codes')
      return (
        <RecoveryCodes
          codes={stage.codes}
          username={user.username}
          onDone={() => setStage({ kind: 'idle', focusHeading: true })}
        />
      );
    if (enabled) {
      return (
        <>
          <p>
            Signing in, opening an escrow and other sensitive steps ask for the code your authenticator app shows. A
            code works once; if you have just used one, wait for the next.
          </p>
          <h3>Recovery codes</h3>
          <p>
            {user.recovery_codes_left === null ? 'Recovery codes' : codesLeftText(user.recovery_codes_left)}. Each one
            works once in place of a code from the app; make new ones when you run low or think someone has seen them.
          </p>
          <NewRecoveryCodesDialog username={user.username} />
          <DisableTwoFactorForm
            onDisabled={(detail) =>
              setStage({ kind: 'idle', notice: `${detail}. Your other sessions were signed out.`, focusHeading: true })
            }
          />
        </>
      );
    }
    if (stage.kind === 'setup')
      return (
        <TwoFactorSetup
          setup={stage.setup}
          onEnabled={(codes) => setStage({ kind: 'codes', codes })}
          onCancel={() => setStage({ kind: 'idle', focusHeading: true })}
        />
      );
    return (
      <>
        {stage.notice && <Message tone="success">{stage.notice}</Message>}
        <p>
          Add a second step to signing in: a 6-digit code from an authenticator app on your phone. It is asked for again
          when you open an escrow.
        </p>
        {setup.isError && <Message tone="error">{messageOf(setup.error, 'Failed to setup 2FA')}</Message>}
        <div>
          <Button
            busy={setup.isPending}
            onClick={() =>
              setup.mutate(undefined, { onSuccess: (answer) => setStage({ kind: 'setup', setup: answer }) })
            }
          >
            Set up 2FA
          </Button>
        </div>
      </>
    );
  })();

  return (
    <section className="profile-section" aria-labelledby="two-factor-heading">
      <div className="section-head">
        <h2 id="two-factor-heading" ref={heading} tabIndex={-1}>
          Two-factor authentication (2FA)
        </h2>
        {enabled ? (
          <span className="pill pill-on">
            <ShieldCheck size={16} aria-hidden="true" /> On
          </span>
        ) : (
          <span className="pill pill-off">
            <ShieldOff size={16} aria-hidden="true" /> Off
          </span>
        )}
      </div>
      {body}
    </section>
  );
}

import { Download } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '../ui/button.tsx';
import { CopyButton } from '../ui/copy-button.tsx';
import { useFocusOnMount } from '../ui/focus-on-mount.ts';
import { Message } from '../ui/message.tsx';
import { formatDateTime } from '../../lib/format.ts';
import './two-factor.css';

/** The text of the downloaded file: what the codes are for, for whom, and the codes, one a line. */
export function recoveryCodesText(codes: readonly string[], username: string, at: Date): string {
  return [
    `Escrow recovery codes for ${username}`,
    `Made ${formatDateTime(at.toISOString())}`,
    'Each code works once, in place of a 2FA code, when you cannot use your authenticator app.',
    '',
    ...codes,
    '',
  ].join('\n');
}

function download(text: string, fileName: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

const TURNED_ON = (
  <>
    2FA is on. From your next sign-in you will be asked for the code your authenticator app shows after your password. A
    code works once: if you have just used one, wait for the next (a new one every 30 seconds). Your other sessions were
    signed out.
  </>
);

/**
 * Shown once, right after 2FA is turned on or new codes are made (`notice` says which): the server keeps only hashes
 * of these codes.
 */
export function RecoveryCodes({
  codes,
  username,
  onDone,
  notice = TURNED_ON,
}: {
  codes: string[];
  username: string;
  onDone: () => void;
  notice?: ReactNode;
}) {
  const text = recoveryCodesText(codes, username, new Date());
  const heading = useFocusOnMount<HTMLHeadingElement>();
  return (
    <div className="recovery-codes">
      <Message tone="success">{notice}</Message>
      <h3 ref={heading} tabIndex={-1}>
        Your recovery codes
      </h3>
      <p>
        Keep these somewhere safe, away from your phone. Each one signs you in once if you lose your authenticator app.{' '}
        <strong>They are shown only now.</strong>
      </p>
      <ul className="recovery-code-list" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className="button-row">
        <CopyButton text={codes.join('\n')} label="Copy codes" />
        <Button variant="secondary" onClick={() => download(text, `escrow-recovery-codes-${username}.txt`)}>
          <Download size={16} aria-hidden="true" /> Download .txt
        </Button>
        <Button onClick={onDone}>I have saved my codes</Button>
      </div>
    </div>
  );
}

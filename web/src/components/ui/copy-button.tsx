import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { copyText } from '../../lib/copy-text.ts';
import { Button } from './button.tsx';

const CONFIRMATION_MS = 2000;

/** Copies `text` and says 'Copied!' for 2 seconds (spec), announced to screen readers. */
export function CopyButton({
  text,
  label,
  variant = 'secondary',
}: {
  text: string;
  label: string;
  variant?: 'secondary' | 'ghost';
}) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), CONFIRMATION_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <Button variant={variant} className="copy-button" onClick={async () => setCopied(await copyText(text))}>
      {copied ? <Check size={16} aria-hidden="true" /> : <Copy size={16} aria-hidden="true" />}
      <span aria-live="polite">{copied ? 'Copied!' : label}</span>
    </Button>
  );
}

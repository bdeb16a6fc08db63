import { useState } from 'react';

/**
 * A form that asks for one code (from the authenticator app, or a recovery code): the code typed, whether a submit
 * found it empty (the field then says so), the submit handler that sends a code, and a reset for a dialog that closes.
 */
export function useCodeForm(send: (code: string) => void) {
  const [code, setCode] = useState('');
  const [missing, setMissing] = useState(false);
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!code) return setMissing(true);
    setMissing(false);
    send(code);
  };
  const reset = () => {
    setCode('');
    setMissing(false);
  };
  return { code, setCode, missing, submit, reset };
}

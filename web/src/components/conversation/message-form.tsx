import { type FormEvent, useRef, useState } from 'react';
import { MAX_MESSAGE_CHARS } from '../../../../contract/messages.ts';
import { messageOf } from '../../api/client.ts';
import { EVIDENCE_ACCEPT, evidenceFileProblem } from '../../lib/evidence-file.ts';
import { Button } from '../ui/button.tsx';
import { Field } from '../ui/field.tsx';
import { Message } from '../ui/message.tsx';
import { usePostMessage } from './messages-api.ts';

/** Writing a message: the words (1-4000 characters) and optionally one file under the evidence rules. */
export function MessageForm({ escrowId, onSent }: { escrowId: string; onSent: () => void }) {
  const [text, setText] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [textError, setTextError] = useState<string | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const post = usePostMessage(escrowId);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const words = text.trim();
    const textProblem = words ? null : 'Write a message first';
    const fileProblem = file ? evidenceFileProblem(file) : null;
    setTextError(textProblem);
    setFileError(fileProblem);
    if (textProblem || fileProblem) return;
    post.mutate(
      { text: words, file },
      {
        onSuccess: () => {
          setText('');
          setFile(null);
          if (fileInput.current) fileInput.current.value = '';
          onSent();
        },
      },
    );
  };

  return (
    <form className="form message-form" onSubmit={submit} noValidate>
      {post.isError && <Message tone="error">{messageOf(post.error, 'Failed to send the message')}</Message>}
      <Field label="Your message" error={textError ?? undefined} hint={`${text.length} of ${MAX_MESSAGE_CHARS} characters. Messages cannot be edited or deleted.`}>
        <textarea
          rows={3}
          maxLength={MAX_MESSAGE_CHARS}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            if (textError && event.target.value.trim()) setTextError(null);
          }}
        />
      </Field>
      <Field label="Attach a file (optional)" error={fileError ?? undefined} hint="A photo, document or receipt: PNG, JPEG, WebP, GIF, PDF or text, at most 10 MB.">
        <input
          ref={fileInput}
          type="file"
          className="evidence-input"
          accept={EVIDENCE_ACCEPT}
          onChange={(event) => {
            const chosen = event.target.files?.[0] ?? null;
            setFile(chosen);
            setFileError(chosen ? evidenceFileProblem(chosen) : null);
          }}
        />
      </Field>
      <div className="message-form-actions">
        <Button type="submit" busy={post.isPending}>
          Send message
        </Button>
      </div>
    </form>
  );
}

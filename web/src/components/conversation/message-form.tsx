import { type FormEvent, useState } from 'react';
import { MAX_MESSAGE_CHARS } from '../../../../contract/messages.ts';
import { messageOf } from '../../api/client.ts';
import { useEvidenceFile } from '../../hooks/use-evidence-file.ts';
import { Button } from '../ui/button.tsx';
import { EvidenceFileField } from '../ui/evidence-file-field.tsx';
import { Field } from '../ui/field.tsx';
import { Message } from '../ui/message.tsx';
import { usePostMessage } from './messages-api.ts';

/** Writing a message: the words (1-4000 characters) and optionally one file under the evidence rules. */
export function MessageForm({ escrowId, onSent }: { escrowId: string; onSent: () => void }) {
  const [text, setText] = useState('');
  const [textError, setTextError] = useState<string | null>(null);
  const evidence = useEvidenceFile();
  const post = usePostMessage(escrowId);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const words = text.trim();
    const textProblem = words ? null : 'Write a message first';
    setTextError(textProblem);
    const fileFits = evidence.validate();
    if (textProblem || !fileFits) return;
    post.mutate(
      { text: words, file: evidence.file },
      {
        onSuccess: () => {
          setText('');
          evidence.clear();
          onSent();
        },
      },
    );
  };

  return (
    <form className="form message-form" onSubmit={submit} noValidate>
      {post.isError && <Message tone="error">{messageOf(post.error, 'Failed to send the message')}</Message>}
      <Field
        label="Your message"
        error={textError ?? undefined}
        hint={`${text.length} of ${MAX_MESSAGE_CHARS} characters. Messages cannot be edited or deleted.`}
      >
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
      <EvidenceFileField label="Attach a file (optional)" what="A photo, document or receipt" evidence={evidence} />
      <div className="message-form-actions">
        <Button type="submit" busy={post.isPending}>
          Send message
        </Button>
      </div>
    </form>
  );
}

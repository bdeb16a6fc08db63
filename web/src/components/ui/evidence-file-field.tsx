import { EVIDENCE_TYPES_IN_WORDS, MAX_EVIDENCE_BYTES } from '../../../../contract/evidence-rules.ts';
import type { EvidenceFile } from '../../hooks/use-evidence-file.ts';
import { EVIDENCE_ACCEPT } from '../../lib/evidence-file.ts';
import { Field } from './field.tsx';
import './evidence-file-field.css';

interface EvidenceFileFieldProps {
  label: string;
  /** What the file may show ("A screenshot or receipt"); the types and the size limit are added. */
  what: string;
  evidence: EvidenceFile;
}

/** One optional file picker for evidence (a payment proof, a message's attachment), offering only what the server keeps. */
export function EvidenceFileField({ label, what, evidence }: EvidenceFileFieldProps) {
  return (
    <Field
      label={label}
      error={evidence.error ?? undefined}
      hint={`${what}: ${EVIDENCE_TYPES_IN_WORDS}, at most ${MAX_EVIDENCE_BYTES / 1024 / 1024} MB.`}
    >
      <input
        key={evidence.pickerKey}
        type="file"
        className="evidence-input"
        accept={EVIDENCE_ACCEPT}
        onChange={(event) => evidence.choose(event.target.files?.[0] ?? null)}
      />
    </Field>
  );
}

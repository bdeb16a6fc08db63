import { useState } from 'react';
import { evidenceFileProblem } from '../lib/evidence-file.ts';

/** The file a person picked as evidence, checked with the server's rules, and what is wrong with it. */
export interface EvidenceFile {
  file: File | null;
  error: string | null;
  /** Changes when the picker must start empty again (it is then drawn anew: a file input cannot be set). */
  pickerKey: number;
  /** A file picked (or the pick undone): checked at once. */
  choose: (file: File | null) => void;
  /** Checks the file again before sending: true when it (or no file) may be sent. */
  validate: () => boolean;
  /** Forgets the file and empties the picker, once it was sent. */
  clear: () => void;
}

export function useEvidenceFile(): EvidenceFile {
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pickerKey, setPickerKey] = useState(0);
  const problemOf = (chosen: File | null) => (chosen ? evidenceFileProblem(chosen) : null);
  return {
    file,
    error,
    pickerKey,
    choose: (chosen) => {
      setFile(chosen);
      setError(problemOf(chosen));
    },
    validate: () => {
      const problem = problemOf(file);
      setError(problem);
      return problem === null;
    },
    clear: () => {
      setFile(null);
      setError(null);
      setPickerKey((key) => key + 1);
    },
  };
}

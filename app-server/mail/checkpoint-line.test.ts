import { describe, expect, it } from 'vitest';
import { toBase64 } from '../../domain/transparency/merkle.ts';
import { checkpointLine } from './checkpoint-line.ts';

describe('the checkpoint line of escrow mails', () => {
  it("names the log's origin, the checkpoint's size and the first 16 hex of its root", () => {
    const root = Uint8Array.from({ length: 32 }, (_, i) => i * 7);
    const note = `escrow.example/log\n42\n${toBase64(root)}\n\n— escrow.example/log AAAA\n`;
    expect(checkpointLine({ note, size: 42, root_hash: toBase64(root) })).toBe(
      'Transparency log escrow.example/log: checkpoint 42, root 00070e151c232a31',
    );
  });
});

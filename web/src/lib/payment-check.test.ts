import { describe, expect, it } from 'vitest';
import { paymentCheckText } from './payment-check.ts';

describe('paymentCheckText', () => {
  const proof = {
    block_hash: '0000abc',
    confirmations: 3,
    received_sats: 10,
    proof_sha256: 'f'.repeat(64),
    work_judged: true,
  };
  it('says nothing before the payment is verified', () => {
    expect(paymentCheckText({ funded_at: null, payment_proof: null })).toBeNull();
  });
  it('says "checked by an admin" without a proof', () => {
    expect(paymentCheckText({ funded_at: '2026-01-01T00:00:00.000Z', payment_proof: null })).toBe(
      'Checked by an admin',
    );
  });
  it('says what the proof showed, and when the work was not judged', () => {
    expect(paymentCheckText({ funded_at: '2026-01-01T00:00:00.000Z', payment_proof: proof })).toBe(
      'Proven on the chain: 3 confirmations, block 0000abc',
    );
    expect(
      paymentCheckText({
        funded_at: '2026-01-01T00:00:00.000Z',
        payment_proof: { ...proof, confirmations: 1, work_judged: false },
      }),
    ).toBe('Proven on the chain: 1 confirmation, block 0000abc (test network: work not judged)');
  });
});

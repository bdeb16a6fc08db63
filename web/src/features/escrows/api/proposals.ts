import { useEscrowMutation } from './escrow-mutation.ts';

export const PROPOSAL_KINDS = ['cancel', 'refund', 'split', 'extend_deadline', 'extend_inspection'] as const;
export type ProposalKind = (typeof PROPOSAL_KINDS)[number];
export interface ProposeInput {
  kind: ProposalKind;
  seller_percent?: number;
  days?: number;
  note?: string;
}

/** A party proposes a settlement; the other side accepts or declines it (contract 7.5). */
export const usePropose = (id: string) =>
  useEscrowMutation<ProposeInput>(id, (json) => ({
    path: '/proposals',
    json,
    fallback: 'Failed to make the proposal',
  }));

const answer = (verb: 'accept' | 'decline' | 'withdraw', fallback: string) => (id: string) =>
  useEscrowMutation<{ proposalId: string }>(id, ({ proposalId }) => ({
    path: `/proposals/${encodeURIComponent(proposalId)}/${verb}`,
    ...(verb === 'decline' ? { json: {} } : {}),
    fallback,
  }));

/** One click each: the other side accepts or declines the open proposal, its maker withdraws it. */
export const useAcceptProposal = answer('accept', 'Failed to accept the proposal');
export const useDeclineProposal = answer('decline', 'Failed to decline the proposal');
export const useWithdrawProposal = answer('withdraw', 'Failed to withdraw the proposal');

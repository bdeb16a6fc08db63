import { describe, expect, it } from 'vitest';
import { isPrivateAddress } from './destination.ts';
import { webhookTypeOf } from './payload.ts';

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    'not an ip',
  ])('%s is not a public host', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });
  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '2a00:1450:4001::200e', '172.32.0.1'])(
    '%s is public',
    (address) => {
      expect(isPrivateAddress(address)).toBe(false);
    },
  );
});

describe('webhookTypeOf', () => {
  it('names escrow events for webhooks', () => {
    expect(webhookTypeOf('PaymentVerified')).toBe('escrow.funded');
    expect(webhookTypeOf('EscrowReleased')).toBe('escrow.released');
    expect(webhookTypeOf('DisputeOpened')).toBe('escrow.dispute_opened');
    expect(webhookTypeOf('PayoutAddressChangeRequested')).toBe('escrow.payout_address_change_requested');
  });
});

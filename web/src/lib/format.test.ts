import { describe, expect, it } from 'vitest';
import { formatAge, formatBtc, formatBtcAmount, formatDateTime, formatUsd, formatBytes } from './format.ts';

describe('format', () => {
  it.each([
    [2029.99, '$2,029.99'],
    [0.01, '$0.01'],
    [1234567.5, '$1,234,567.50'],
    [100, '$100.00'],
  ])('USD %s reads %s', (amount, text) => expect(formatUsd(amount)).toBe(text));

  it('BTC keeps all 8 decimals, from satoshis or from the API number', () => {
    expect(formatBtc(3_123_062)).toBe('0.03123062 BTC');
    expect(formatBtcAmount(0.03123062)).toBe('0.03123062 BTC');
    expect(formatBtcAmount(12.3)).toBe('12.30000000 BTC');
  });

  it('times read in UTC', () => {
    expect(formatDateTime('2026-11-24T15:49:03.120Z')).toBe('24 Nov 2026, 15:49 UTC');
  });

  it('file sizes in B, KB and MB', () => {
    expect([formatBytes(512), formatBytes(2048), formatBytes(1536 * 1024)]).toEqual(['512 B', '2.0 KB', '1.5 MB']);
  });

  it('ages in words', () => {
    const now = new Date('2026-11-24T12:00:00Z');
    expect(formatAge('2026-11-24T11:59:30Z', now)).toBe('just now');
    expect(formatAge('2026-11-24T11:00:00Z', now)).toBe('1 hour ago');
    expect(formatAge('2026-11-21T12:00:00Z', now)).toBe('3 days ago');
  });
});

import { describe, expect, it } from 'vitest';
import { actorName, sentence } from './event-words.ts';

describe('event words', () => {
  it('starts a sentence with a capital and leaves the rest as written', () => {
    expect(sentence('made alice the seller of escrow 0b1c2d3e')).toBe('Made alice the seller of escrow 0b1c2d3e');
    expect(sentence('')).toBe('');
  });

  it('names the actor by username, else as system or a short id', () => {
    expect(actorName({ actor: '0b1c2d3e-0000-4000-8000-000000000002', actor_username: 'alice' })).toBe('alice');
    expect(actorName({ actor: 'system', actor_username: null })).toBe('system');
    expect(actorName({ actor: '0b1c2d3e-0000-4000-8000-000000000002', actor_username: null })).toBe('user 0b1c2d3e');
  });
});

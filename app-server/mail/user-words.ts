/**
 * Text a user typed, set apart in a mail body so that nobody takes it for the service's own words: a line saying whose
 * words follow, then each line quoted. Subjects never carry user text at all (a subject is read before anything
 * else, and a name like "Your bank: verify at ..." would speak with the service's voice).
 */
export function userWords(whose: string, text: string): string[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  return [`${whose} (their own words, not checked by us):`, ...lines.map((line) => `> ${line}`)];
}

/** An escrow as a subject names it: by the start of its id, never by the title its creator typed. */
export const escrowRef = (id: string) => `escrow ${id.slice(0, 8)}`;

/** Reads the server's mail outbox file the way a person reads their inbox: the newest mail to them that matches. */
import { readFileSync } from 'node:fs';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  sent_at: string;
}

export function allMail(outbox: string): Mail[] {
  try {
    return readFileSync(outbox, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Mail);
  } catch {
    return [];
  }
}

/** Waits (up to 20 s: the sender loop delivers every few seconds) for a mail to `to` whose subject contains `subject`. */
export async function waitForMail(
  outbox: string,
  to: string,
  subject: string | RegExp,
  options: { after?: number } = {},
): Promise<Mail> {
  const matches = (mail: Mail) =>
    mail.to === to && (typeof subject === 'string' ? mail.subject.includes(subject) : subject.test(mail.subject));
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const found = allMail(outbox)
      .slice(options.after ?? 0)
      .filter(matches)
      .at(-1);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`no mail to ${to} about "${String(subject)}" within 20 s`);
}

/** The first link in the mail whose path starts with `pathPrefix` (e.g. '/verify-email', '/escrow/'). */
export function linkIn(mail: Mail, pathPrefix: string): string {
  for (const match of mail.text.matchAll(/https?:\/\/[^\s<>"')]+/g)) {
    const url = new URL(match[0]);
    if (url.pathname.startsWith(pathPrefix)) return url.pathname + url.search;
  }
  throw new Error(`no link to ${pathPrefix} in the mail "${mail.subject}" to ${mail.to}`);
}

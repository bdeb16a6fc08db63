import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.ts';
import { openTestDatabase, type TestDatabase } from '../testing/test-database.ts';
import { enqueueMail } from './outbox.ts';
import { deliverDueMail } from './sender.ts';
import { fileTransport, type MailTransport, smtpTransport } from './transports.ts';

let t: TestDatabase;
const logger = createLogger('silent');
beforeAll(async () => {
  t = await openTestDatabase();
});
beforeEach(async () => t.reset());
afterAll(async () => t.dispose());

const queue = (...subjects: string[]) =>
  t.db.transaction().execute((trx) =>
    enqueueMail(
      trx,
      subjects.map((subject) => ({ to: 'a@example.com', subject, text: `Body of ${subject}` })),
    ),
  );

describe('mail outbox', () => {
  it('delivers queued mail as JSON lines, once', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'outbox-')), 'mail-outbox.jsonl');
    await queue('Welcome', 'Verify your e-mail');
    expect(await deliverDueMail(t.db, fileTransport(path), logger)).toEqual({ sent: 2, failed: 0 });
    expect(await deliverDueMail(t.db, fileTransport(path), logger)).toEqual({ sent: 0, failed: 0 });
    const lines = readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.subject)).toEqual(['Welcome', 'Verify your e-mail']);
    expect(lines[0]).toEqual({
      to: 'a@example.com',
      subject: 'Welcome',
      text: 'Body of Welcome',
      sent_at: expect.any(String),
      message_id: expect.stringMatching(/^<outbox\.\d+\.\d+@localhost>$/),
    });
  });

  it('keeps a mail that failed and retries it after a backoff', async () => {
    await queue('Funded');
    let fail = true;
    const delivered: string[] = [];
    const flaky: MailTransport = {
      describe: 'flaky',
      async send(mail) {
        if (fail) throw new Error('SMTP 421 try later');
        delivered.push(mail.subject);
      },
    };
    const start = new Date(Date.now() + 1); // the mail was queued at the database's now(), to the microsecond
    expect(await deliverDueMail(t.db, flaky, logger, { now: () => start })).toEqual({ sent: 0, failed: 1 });
    fail = false;
    // Not due yet: the first retry waits a minute.
    expect(await deliverDueMail(t.db, flaky, logger, { now: () => start })).toEqual({ sent: 0, failed: 0 });
    const later = new Date(start.getTime() + 61_000);
    expect(await deliverDueMail(t.db, flaky, logger, { now: () => later })).toEqual({ sent: 1, failed: 0 });
    expect(delivered).toEqual(['Funded']);
    const row = await t.db.selectFrom('mail_outbox').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ attempts: 2, last_error: 'SMTP 421 try later' });
  });

  it('never sends one mail twice when two senders run at once', async () => {
    await queue(...Array.from({ length: 20 }, (_, i) => `Mail ${i}`));
    const seen: string[] = [];
    const slow: MailTransport = {
      describe: 'slow',
      async send(mail) {
        seen.push(mail.subject);
        await new Promise((r) => setTimeout(r, 2));
      },
    };
    const [a, b] = await Promise.all([deliverDueMail(t.db, slow, logger), deliverDueMail(t.db, slow, logger)]);
    expect(a.sent + b.sent).toBe(20);
    expect(new Set(seen).size).toBe(20);
    expect(seen).toHaveLength(20);
  });
});

describe('Message-ID', () => {
  it('each mail carries one derived from its outbox row: the same on every attempt, another for another row', async () => {
    await queue('Funded', 'Released');
    const handed: Array<{ subject: string; messageId: string }> = [];
    let crashAfterHandingOver = true;
    // Hands the mail over, then fails before the row is marked sent: what a crash right after SMTP accepted it leaves.
    const crashing: MailTransport = {
      describe: 'crashing',
      messageDomain: 'escrow.example.com',
      async send(mail) {
        handed.push({ subject: mail.subject, messageId: mail.messageId });
        if (crashAfterHandingOver) throw new Error('process died');
      },
    };
    const start = new Date(Date.now() + 1);
    await deliverDueMail(t.db, crashing, logger, { now: () => start, batch: 1 });
    crashAfterHandingOver = false;
    await deliverDueMail(t.db, crashing, logger, { now: () => new Date(start.getTime() + 61_000) });
    expect(handed.map((h) => h.subject)).toEqual(['Funded', 'Funded', 'Released']);
    expect(handed[0]!.messageId).toMatch(/^<outbox\.\d+\.\d+@escrow\.example\.com>$/);
    expect(handed[1]!.messageId).toBe(handed[0]!.messageId);
    expect(handed[2]!.messageId).not.toBe(handed[0]!.messageId);
  });

  it('goes out over SMTP as the Message-ID header, the same when the mail is sent again', async () => {
    const received: string[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, _session, done) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push(Buffer.concat(chunks).toString('utf8'));
          done();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.server.address() as AddressInfo).port;
      const smtp = smtpTransport(`smtp://127.0.0.1:${port}`, 'Escrow Support <support@escrow.example.com>');
      await queue('Funded');
      expect(await deliverDueMail(t.db, smtp, logger)).toEqual({ sent: 1, failed: 0 });
      // The crash between SMTP's acceptance and the commit: the row is due again after the restart.
      await t.db.updateTable('mail_outbox').set({ sent_at: null }).execute();
      expect(await deliverDueMail(t.db, smtp, logger)).toEqual({ sent: 1, failed: 0 });
      const ids = received.map((message) => /^Message-ID: (.*)$/im.exec(message)?.[1]?.trim());
      expect(ids).toHaveLength(2);
      expect(ids[0]).toMatch(/^<outbox\.\d+\.\d+@escrow\.example\.com>$/);
      expect(ids[1]).toBe(ids[0]);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Transporter } from 'nodemailer';
import { type DeliveredMail, domainOf } from './outbox.ts';

/** Delivers one mail or throws; the sender retries later. */
export interface MailTransport {
  describe: string;
  /** The right-hand side of the Message-IDs this transport's mail carries (the sender's domain); 'localhost' if absent. */
  messageDomain?: string;
  send(mail: DeliveredMail, sentAt: string): Promise<void>;
}

/** Without SMTP: one JSON line per mail, `{"to","subject","text","sent_at","message_id"}`, appended to a file. */
export function fileTransport(path: string, from = 'localhost'): MailTransport {
  let ready: Promise<unknown> | undefined;
  return {
    describe: `file ${path}`,
    messageDomain: domainOf(from),
    async send(mail, sentAt) {
      ready ??= mkdir(dirname(path), { recursive: true });
      await ready;
      const line = JSON.stringify({
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        sent_at: sentAt,
        message_id: mail.messageId,
      });
      await appendFile(path, `${line}\n`, 'utf8');
    },
  };
}

/** Real e-mail through the SMTP server at `url` (smtp:// or smtps://, credentials in the URL). */
export function smtpTransport(url: string, from: string): MailTransport {
  // nodemailer is loaded with the first mail, not at start.
  let transporter: Promise<Transporter> | undefined;
  const connect = () =>
    (transporter ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(url)));
  return {
    describe: `smtp ${new URL(url).host}`,
    messageDomain: domainOf(from),
    async send(mail) {
      await (
        await connect()
      ).sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, messageId: mail.messageId });
    },
  };
}

import { type Config, mailOutboxPath } from '../config.ts';
import { fileTransport, type MailTransport, smtpTransport } from './transports.ts';

/** SMTP when SMTP_URL is set, else the JSON-lines outbox file. */
export function mailTransportFor(config: Config): MailTransport {
  if (config.SMTP_URL) return smtpTransport(config.SMTP_URL, config.MAIL_FROM ?? config.SUPPORT_EMAIL);
  return fileTransport(mailOutboxPath(config), config.MAIL_FROM ?? config.SUPPORT_EMAIL);
}

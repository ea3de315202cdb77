import nodemailer from 'nodemailer';
import type { Logger } from '../logger';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface CapturedMail extends Mail {
  id: number;
  sentAt: number;
}

export interface Mailer {
  readonly kind: 'smtp' | 'dev-mailbox';
  send(mail: Mail): Promise<void>;
  /** Mails captured in embedded mode (empty for SMTP). */
  captured(): CapturedMail[];
  close(): void;
}

/** Real delivery over SMTP through nodemailer. */
export function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    kind: 'smtp',
    async send(mail) {
      await transport.sendMail({ from, ...mail });
    },
    captured: () => [],
    close: () => transport.close(),
  };
}

/**
 * Embedded-mode stand-in for SMTP: writes each mail (with its links) to the log and keeps the last
 * 100 for the development mailbox page. Labelled as such in the log at start-up.
 */
export function devMailbox(logger: Logger): Mailer {
  const mails: CapturedMail[] = [];
  let next = 1;
  return {
    kind: 'dev-mailbox',
    async send(mail) {
      const captured = { ...mail, id: next++, sentAt: Date.now() };
      mails.unshift(captured);
      mails.length = Math.min(mails.length, 100);
      // Embedded mode only: the whole point is that the developer can read the link from the log.
      logger.info({ mailTo: mail.to, subject: mail.subject }, `[dev mailbox] mail to ${mail.to}: ${mail.subject}\n${mail.text}`);
    },
    captured: () => [...mails],
    close: () => undefined,
  };
}

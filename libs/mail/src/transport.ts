import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

export interface OutgoingMail {
  /** Stable id (the outbox row): a repeated delivery of one message overwrites, never duplicates. */
  id: string;
  to: string;
  subject: string;
  text: string;
  createdAt: Date;
}

export interface MailTransport {
  readonly kind: 'mailbox' | 'smtp';
  send(mail: OutgoingMail): Promise<void>;
  close(): Promise<void>;
}

/** The JSON file a development mailbox holds for each message. */
export interface MailboxMessage {
  id: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  created_at: string;
}

/**
 * Development and tests: each message is a JSON file in `dir`, named by creation time and id so
 * a directory listing is in sending order. Written under a temporary name and renamed, so a
 * reader never sees half a message.
 */
export function mailboxTransport(dir: string, from: string): MailTransport {
  return {
    kind: 'mailbox',
    async send(mail) {
      await mkdir(dir, { recursive: true });
      const body: MailboxMessage = {
        id: mail.id,
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        created_at: mail.createdAt.toISOString(),
      };
      const name = `${mail.createdAt.getTime()}-${mail.id}.json`;
      const tmp = path.join(dir, `.${name}.tmp`);
      await writeFile(tmp, JSON.stringify(body, null, 2));
      await rename(tmp, path.join(dir, name));
    },
    async close() {},
  };
}

/** Production: an SMTP relay (`smtp://user:pass@host:587` or `smtps://…`). */
export function smtpTransport(url: string, from: string): MailTransport {
  const transporter = nodemailer.createTransport(url);
  return {
    kind: 'smtp',
    async send(mail) {
      await transporter.sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        messageId: `<${mail.id}@guest-api>`,
        date: mail.createdAt,
      });
    },
    async close() {
      transporter.close();
    },
  };
}

export function transportFromConfig(config: {
  APP_ENV: string;
  SMTP_URL?: string | undefined;
  MAILBOX_DIR: string;
  MAIL_FROM: string;
}): MailTransport {
  if (config.SMTP_URL) return smtpTransport(config.SMTP_URL, config.MAIL_FROM);
  // A production process without a relay would silently keep mail on its own disk.
  if (config.APP_ENV === 'production') throw new Error('SMTP_URL must be set in production');
  return mailboxTransport(config.MAILBOX_DIR, config.MAIL_FROM);
}

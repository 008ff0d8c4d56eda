import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { EngineUnavailable } from '@support/kernel';

/** Workspace notices by e-mail (e.g. "your webhook endpoint was disabled"). */

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

export interface MailerOptions {
  /** SMTP_URL; without it mails go to outboxDir as .eml files. */
  smtpUrl?: string;
  /** Normally $DATA_DIR/outbox. */
  outboxDir: string;
  from?: string;
}

export const DEFAULT_FROM = 'Support Platform <notifications@support.invalid>';

/** Nodemailer's codes for a server it could not reach or that went away mid-message. */
const UNREACHED = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENOTFOUND']);

/**
 * A failure that is the mail server's state, not the message's: unreached, or a transient 4xx
 * reply (421 going down, 450/451/452 try again). Sent as EngineUnavailable, which a consumer
 * waits out however long it lasts; a 5xx refusal of this message stays as it is.
 */
const unavailableIfServerDown = (err: unknown): unknown => {
  const { code, responseCode } = (err ?? {}) as { code?: unknown; responseCode?: unknown };
  const transient = typeof responseCode === 'number' && responseCode >= 400 && responseCode < 500;
  return (typeof code === 'string' && UNREACHED.has(code)) || transient ? new EngineUnavailable('mail server', err) : err;
};

export function createMailer(options: MailerOptions): Mailer {
  const from = options.from ?? DEFAULT_FROM;
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text }).catch((err: unknown) => {
          throw unavailableIfServerDown(err);
        });
      },
    };
  }
  // No SMTP server: render the same RFC 822 message and leave it where an operator can read it.
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const dir = options.outboxDir;
  return {
    async send(mail) {
      const info = await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
      await mkdir(dir, { recursive: true });
      // Colons are not allowed in Windows file names; the name still sorts by time.
      const stamp = new Date().toISOString().replace(/:/g, '-');
      await writeFile(join(dir, `${stamp}-${randomBytes(4).toString('hex')}.eml`), info.message as Buffer);
    },
  };
}

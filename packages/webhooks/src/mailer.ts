import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';

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

export function createMailer(options: MailerOptions): Mailer {
  const from = options.from ?? DEFAULT_FROM;
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
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

/** Outgoing mail transport. The app talks to `Mailer`; tests inject a capturing one. */
import nodemailer from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string | null;
}

export interface Mailer {
  /** Delivers one message or throws. */
  send(message: MailMessage & { from: string }): Promise<void>;
  close?(): void | Promise<void>;
}

/** nodemailer over SMTP (smtp:// or smtps:// URL, credentials in the URL). */
export function createSmtpMailer(smtpUrl: string): Mailer {
  const url = new URL(smtpUrl);
  const transport = nodemailer.createTransport({
    host: url.hostname,
    port: url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587,
    secure: url.protocol === 'smtps:',
    auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
    // A local relay without a certificate (smtp://) is common; never hang a request on a dead server.
    tls: url.searchParams.get('tls') === 'insecure' ? { rejectUnauthorized: false } : undefined,
    ignoreTLS: url.searchParams.get('starttls') === 'false',
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    async send(message) {
      await transport.sendMail({
        from: message.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html ?? undefined,
      });
    },
    close: () => transport.close(),
  };
}

export interface SmtpOptions {
  host: string;
  port: number;
  /** true: TLS from the start (port 465); false: plain, upgraded by STARTTLS when offered. */
  secure: boolean;
  user?: string | null;
  password?: string | null;
}

/** nodemailer over SMTP from explicit settings (the admin's SMTP settings stored in the database). */
export function createSmtpMailerFromOptions(options: SmtpOptions): Mailer {
  const transport = nodemailer.createTransport({
    host: options.host,
    port: options.port,
    secure: options.secure,
    auth: options.user ? { user: options.user, pass: options.password ?? '' } : undefined,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    async send(message) {
      await transport.sendMail({
        from: message.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html ?? undefined,
      });
    },
    close: () => transport.close(),
  };
}

/** "Name <address>" with the given display name, keeping the address of a "Name <address>" or bare address. */
export function withSenderName(from: string, name: string): string {
  const address = /<([^>]+)>/.exec(from)?.[1] ?? from.trim();
  const display = name.replace(/["\\\r\n]/g, '').trim();
  return display ? `"${display}" <${address}>` : address;
}

import { createHash } from 'node:crypto';
import nodemailer from 'nodemailer';
import type { Config } from '../config.js';

/**
 * The store's SMTP connection: one pool per app (closed with it), or, without SMTP_URL, nothing
 * at all, in which case every send answers "not sent". A failed send throws an EmailDeliveryError
 * that says whether trying again can help.
 */

export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Stable for one piece of news, so a resend after an unclear failure reads as the same message. */
  messageId: string;
}

export type SendOutcome = { sent: true; messageId: string } | { sent: false; reason: 'smtp_not_configured' };

export interface Mailer {
  readonly from: { name: string; address: string };
  /** Whether emails go anywhere (SMTP_URL is set); if not, every send answers "not sent". */
  readonly configured: boolean;
  /** Hands the email to the SMTP server; throws EmailDeliveryError when it is not taken. */
  send(email: OutgoingEmail): Promise<SendOutcome>;
  close(): void;
}

/**
 * Why an email was not sent, in words safe to log (the server's reply with addresses cut to
 * their domain), and whether the same email can go through later: `permanent` for a message the
 * server refused for good (a 5xx reply to the envelope or the content), otherwise a connection
 * that failed, timed out or was refused for now (4xx), or credentials the operator can fix.
 */
export class EmailDeliveryError extends Error {
  override readonly name = 'EmailDeliveryError';
  readonly permanent: boolean;
  /** Nodemailer's code (ESOCKET, ETIMEDOUT, EENVELOPE, EMESSAGE, EAUTH, …). */
  readonly code: string | undefined;
  /** The SMTP server's reply code, when it replied. */
  readonly responseCode: number | undefined;

  constructor(
    message: string,
    failure: { permanent: boolean; code: string | undefined; responseCode: number | undefined },
  ) {
    super(message);
    this.permanent = failure.permanent;
    this.code = failure.code;
    this.responseCode = failure.responseCode;
  }
}

/** Timeouts a job can wait out; nodemailer's own (2 minutes to connect, 10 idle) would hold a job far longer. */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 60_000 };

/** The local part of every address in a server's reply is personal data; the domain says enough. */
export const withoutMailboxes = (text: string): string => text.replace(/[^\s<>@(),;:]+@/g, '…@');

interface SmtpFailure {
  code?: unknown;
  responseCode?: unknown;
  permanent?: unknown;
  response?: unknown;
  command?: unknown;
  message?: unknown;
}

/** A nodemailer failure as an EmailDeliveryError. */
export function deliveryError(err: unknown): EmailDeliveryError {
  const source = (typeof err === 'object' && err !== null ? err : {}) as SmtpFailure;
  const code = typeof source.code === 'string' ? source.code : undefined;
  const responseCode = typeof source.responseCode === 'number' ? source.responseCode : undefined;
  const failure = { code, responseCode };
  if (responseCode !== undefined) {
    const reply = withoutMailboxes(String(source.response ?? responseCode)).slice(0, 300);
    const command = typeof source.command === 'string' ? `${source.command.split(' ')[0]}: ` : '';
    // nodemailer marks 5xx (but 503) permanent. Refused credentials are the store's to fix, not
    // this email's fault: once fixed, the same email goes through.
    const permanent = source.permanent === true && code !== 'EAUTH';
    const verdict = permanent ? 'refused the email' : 'did not take the email for now';
    return new EmailDeliveryError(`the SMTP server ${verdict} (${command}${reply})`, { ...failure, permanent });
  }
  const message = withoutMailboxes(typeof source.message === 'string' ? source.message : String(err));
  // No reply from a server: an envelope nodemailer itself finds unusable will never be; anything
  // else (refused or lost connection, DNS, TLS, timeouts) may work on the next try.
  const permanent = code === 'EENVELOPE';
  return new EmailDeliveryError(`email not sent: ${message}`, { ...failure, permanent });
}

function messageIdDomain(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1) || 'localhost';
}

/** `<digest.label@domain>`: the same key gives the same Message-ID. */
export function messageIdFor(input: { key: string; label: string; fromAddress: string }): string {
  const digest = createHash('sha256').update(input.key).digest('hex').slice(0, 32);
  return `<${digest}.${input.label}@${messageIdDomain(input.fromAddress)}>`;
}

export function createMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom'>): Mailer {
  const from = config.mailFrom;
  if (config.smtpUrl === undefined) {
    return {
      from,
      configured: false,
      send: async () => ({ sent: false, reason: 'smtp_not_configured' }),
      close: () => {},
    };
  }
  // Options in SMTP_URL's query (`?tls.rejectUnauthorized=false`, `&maxConnections=5`) win over these.
  const transport = nodemailer.createTransport({
    url: config.smtpUrl,
    pool: true,
    maxConnections: 3,
    ...TIMEOUTS,
    logger: false,
  });
  return {
    from,
    configured: true,
    async send(email) {
      try {
        const info = await transport.sendMail({
          from,
          to: email.to,
          subject: email.subject,
          text: email.text,
          html: email.html,
          messageId: email.messageId,
          // RFC 3834: an automatic message, so out-of-office replies are not sent back to it.
          headers: { 'Auto-Submitted': 'auto-generated' },
        });
        return { sent: true, messageId: info.messageId };
      } catch (err) {
        throw deliveryError(err);
      }
    },
    close: () => transport.close(),
  };
}

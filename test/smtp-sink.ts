import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server on loopback that keeps what it is sent, for tests: each message with its
 * envelope, headers and decoded text and HTML parts (a small MIME reader: multipart, quoted-
 * printable, base64, encoded words; enough for what nodemailer writes).
 */

export interface ReceivedEmail {
  /** The envelope: MAIL FROM and RCPT TO. */
  mailFrom: string | undefined;
  rcptTo: string[];
  /** Header names lower-cased, folded lines joined, encoded words decoded. */
  headers: Map<string, string>;
  text: string | undefined;
  html: string | undefined;
  raw: string;
}

export interface SmtpSink {
  url: string;
  received: ReceivedEmail[];
  /** Credentials sent with AUTH. */
  logins: { username: string | null | undefined; password: string | null | undefined }[];
  /** Reply to RCPT TO with this code (e.g. 550, 451) instead of accepting; undefined accepts. */
  refuseRecipients: number | undefined;
  close(): Promise<void>;
}

function decodeQuotedPrintable(body: string): Buffer {
  const joined = body.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i += 1) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i] ?? '', 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

/** A part's body as text, line breaks as a reader shows them (\n). */
function decodeBody(body: string, encoding: string | undefined): string {
  const kind = (encoding ?? '7bit').toLowerCase();
  const decoded =
    kind === 'quoted-printable'
      ? decodeQuotedPrintable(body).toString('utf8')
      : kind === 'base64'
        ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
        : body;
  return decoded.replace(/\r\n/g, '\n');
}

/** `=?UTF-8?Q?Caf=C3=A9?=` and `=?UTF-8?B?...?=` words, adjacent ones joined. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?[^?]+\?([QB])\?([^?]*)\?=/gi, (_all, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')).toString('utf8'),
    );
}

function splitHeaders(block: string): { headers: Map<string, string>; body: string } {
  const end = block.indexOf('\r\n\r\n');
  const head = end === -1 ? block : block.slice(0, end);
  const body = end === -1 ? '' : block.slice(end + 4);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), decodeWords(line.slice(colon + 1).trim()));
  }
  return { headers, body };
}

/** The text and HTML parts of a message, however nodemailer nested them. */
function parts(block: string, found: { text?: string; html?: string } = {}): { text?: string; html?: string } {
  const { headers, body } = splitHeaders(block);
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.toLowerCase().startsWith('multipart/') && boundary) {
    const sections = body.split(`--${boundary}`).slice(1);
    for (const section of sections) {
      if (section.startsWith('--')) break;
      parts(section.replace(/^\r\n/, ''), found);
    }
    return found;
  }
  const decoded = decodeBody(body, headers.get('content-transfer-encoding'));
  if (type.toLowerCase().startsWith('text/html')) found.html = decoded;
  else if (type.toLowerCase().startsWith('text/plain')) found.text = decoded;
  return found;
}

export function readEmail(raw: string, envelope: { mailFrom: string | undefined; rcptTo: string[] }): ReceivedEmail {
  const { headers } = splitHeaders(raw);
  const { text, html } = parts(raw);
  return { ...envelope, headers, text, html, raw };
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const sink: Omit<SmtpSink, 'url' | 'close'> = { received: [], logins: [], refuseRecipients: undefined };
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    closeTimeout: 1000,
    onAuth(auth, _session, callback) {
      sink.logins.push({ username: auth.username, password: auth.password });
      callback(null, { user: auth.username ?? 'user' });
    },
    onRcptTo(_address, _session, callback) {
      const code = sink.refuseRecipients;
      if (code === undefined) return callback();
      const refusal = Object.assign(new Error(code >= 500 ? 'mailbox unavailable' : 'try again later'), {
        responseCode: code,
      });
      return callback(refusal);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const mailFrom = (session.envelope.mailFrom || undefined)?.address ?? undefined;
        const rcptTo = session.envelope.rcptTo.map((r) => r.address);
        sink.received.push(readEmail(Buffer.concat(chunks).toString('utf8'), { mailFrom, rcptTo }));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return Object.assign(sink, {
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface CaughtMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  raw: string;
}

/**
 * A real SMTP server on 127.0.0.1 that keeps what it receives — tests get mail the way a user would,
 * through nodemailer and the SMTP protocol, not through a mock transport.
 */
export async function startSmtpServer() {
  const mails: CaughtMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          subject: decodeHeader(header(raw, 'subject')),
          text: textBody(raw),
          raw,
        });
        for (const wake of waiters) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;

  async function waitForMail(
    match: { to: string; subject?: RegExp },
    timeoutMs = 10_000,
  ): Promise<CaughtMail> {
    const find = () =>
      mails.find(
        (m) => m.to.includes(match.to.toLowerCase()) && (!match.subject || match.subject.test(m.subject)),
      );
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = find();
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`No mail to ${match.to} within ${timeoutMs} ms (got ${mails.length})`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          waiters.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(wake, left);
        waiters.add(wake);
      });
    }
  }

  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    waitForMail,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first link in a mail whose path starts with `prefix` (e.g. '/confirm_email/'). */
export function linkIn(mail: CaughtMail, prefix: string): string {
  const match = mail.text.match(new RegExp(`https?://[^\\s]+${prefix.replace(/[/]/g, '\\/')}[^\\s]+`));
  if (!match) throw new Error(`No ${prefix} link in mail "${mail.subject}"`);
  return match[0];
}

function header(raw: string, name: string): string {
  const head = raw.split(/\r?\n\r?\n/)[0] ?? '';
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const line = unfolded.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name}:`));
  return line ? line.slice(name.length + 1).trim() : '';
}

/** RFC 2047 encoded words (nodemailer encodes non-ASCII subjects). */
function decodeHeader(value: string): string {
  return value.replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_, enc: string, data: string) =>
    enc.toLowerCase() === 'b'
      ? Buffer.from(data, 'base64').toString('utf8')
      : decodeQuotedPrintable(data.replace(/_/g, ' ')),
  );
}

function decodeQuotedPrintable(value: string): string {
  const bytes: number[] = [];
  const soft = value.replace(/=\r?\n/g, '');
  for (let i = 0; i < soft.length; i++) {
    if (soft[i] === '=' && /^[0-9A-F]{2}$/i.test(soft.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(soft[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The text/plain part, decoded. */
function textBody(raw: string): string {
  const boundary = raw.match(/boundary="?([^";\r\n]+)"?/i)?.[1];
  const parts = boundary ? raw.split(`--${boundary}`) : [raw];
  const part = parts.find((p) => /content-type:\s*text\/plain/i.test(p)) ?? parts[0] ?? '';
  const [head = '', ...rest] = part.split(/\r?\n\r?\n/);
  const body = rest.join('\n\n');
  const encoding = head.match(/content-transfer-encoding:\s*([\w-]+)/i)?.[1]?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
  return body;
}

// ---------------------------------------------------------------- reading a caught mail's parts

/** The leaf parts of a caught mail (nested multiparts as nodemailer writes them), bodies decoded. */
export function partsOf(mail: CaughtMail): { head: string; content: Buffer }[] {
  const boundaries = [...mail.raw.matchAll(/boundary="?([^";\r\n]+)"?/gi)].map((m) => m[1]!);
  const parts = boundaries.flatMap((b) => mail.raw.split(`--${b}`));
  return parts.flatMap((part) => {
    const [head = '', ...rest] = part.split(/\r?\n\r?\n/);
    const body = rest.join('\r\n\r\n');
    const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
    if (!/content-type:/i.test(unfolded) || /content-type:\s*multipart/i.test(unfolded)) return [];
    const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(unfolded)?.[1]?.toLowerCase();
    const content =
      encoding === 'base64'
        ? Buffer.from(body.replace(/\s+/g, ''), 'base64')
        : encoding === 'quoted-printable'
          ? Buffer.from(
              body
                .replace(/=\r?\n/g, '')
                .replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
              'latin1',
            )
          : Buffer.from(body, 'utf8');
    return [{ head: unfolded, content }];
  });
}

/** The attachments of a caught mail: parts with a file name. */
export function attachmentsOf(mail: CaughtMail): { filename: string; content: Buffer }[] {
  return partsOf(mail).flatMap(({ head, content }) => {
    const filename = /filename="?([^";\r\n]+)"?/i.exec(head)?.[1];
    return filename ? [{ filename, content }] : [];
  });
}

/** The text/plain body, found however deep the multiparts nest (`CaughtMail.text` reads the first level). */
export const textOf = (mail: CaughtMail) =>
  partsOf(mail)
    .find((p) => /content-type:\s*text\/plain/i.test(p.head))
    ?.content.toString('utf8') ?? '';

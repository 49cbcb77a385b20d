// A real SMTP server on 127.0.0.1 that keeps every mail the app sends. Pass it to startApp({ smtp }),
// which sets SMTP_URL=smtp://127.0.0.1:<port> for the server.
import { SMTPServer } from 'smtp-server';
import { freePort } from './app';
import { type ParsedMail, parseMail } from './mail';

export { extractLink, findLinks, type ParsedMail } from './mail';

export interface MailQuery {
  /** Recipient address (case-insensitive). */
  to: string;
  /** Substring of the subject, or a pattern. */
  subject?: string | RegExp;
}

export interface SmtpHandle {
  url: string;
  port: number;
  /** Every mail received so far, oldest first. */
  messages: ParsedMail[];
  /**
   * The oldest mail matching the query that no earlier waitForMail call returned; waits for it when
   * there is none yet. So two calls for the same query return two different mails.
   */
  waitForMail(query: MailQuery, timeoutMs?: number): Promise<ParsedMail>;
  close(): Promise<void>;
}

export async function startSmtp(): Promise<SmtpHandle> {
  const messages: ParsedMail[] = [];
  const taken = new Set<ParsedMail>();
  const waiters = new Set<() => void>();

  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'], // plain SMTP on loopback; nodemailer would otherwise try TLS
    logger: false,
    size: 50 * 1024 * 1024,
    onAuth(_auth, _session, callback) {
      callback(null, { user: 'e2e' });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        try {
          const mailFrom = session.envelope.mailFrom;
          messages.push(
            parseMail(Buffer.concat(chunks), {
              from: mailFrom ? mailFrom.address : undefined,
              to: session.envelope.rcptTo.map((recipient) => recipient.address),
            }),
          );
          for (const wake of waiters) wake();
          callback();
        } catch (error) {
          callback(error as Error);
        }
      });
    },
  });

  const port = await freePort();
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolveListen();
    });
  });
  server.on('error', (error) => console.error(`[smtp:${port}] ${error.message}`));

  const matches = (mail: ParsedMail, query: MailQuery) => {
    if (!mail.to.includes(query.to.toLowerCase())) return false;
    if (query.subject === undefined) return true;
    return typeof query.subject === 'string'
      ? mail.subject.includes(query.subject)
      : query.subject.test(mail.subject);
  };

  const waitForMail = (query: MailQuery, timeoutMs = 20_000) =>
    new Promise<ParsedMail>((resolveMail, reject) => {
      const check = () => {
        const found = messages.find((mail) => !taken.has(mail) && matches(mail, query));
        if (!found) return false;
        taken.add(found);
        cleanup();
        resolveMail(found);
        return true;
      };
      const timer = setTimeout(() => {
        cleanup();
        const seen = messages.map((mail) => `  to ${mail.to.join(', ')}: "${mail.subject}"`).join('\n');
        reject(
          new Error(
            `No mail to ${query.to}${query.subject ? ` with subject ${String(query.subject)}` : ''} within ${timeoutMs} ms. Received:\n${seen || '  nothing'}`,
          ),
        );
      }, timeoutMs);
      const wake = () => {
        check();
      };
      const cleanup = () => {
        clearTimeout(timer);
        waiters.delete(wake);
      };
      waiters.add(wake);
      check();
    });

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    waitForMail,
    close: () => new Promise<void>((resolveClose) => server.close(() => resolveClose())),
  };
}

import { connect, type Socket } from 'node:net';
import { eq, inArray, sql } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Db } from '../db/client';
import { mailOutbox } from '../db/schema';
import type { Logger } from '../lib/logger';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  kind: string;
  /** Extra headers (List-Unsubscribe, RFC 8058). */
  headers?: Record<string, string>;
  /** The sender, when not MAIL_FROM (a space's own sender name and address, settings/email). */
  from?: string;
  /** A stable Message-ID: the same mail retried after a crash is recognisably the same. */
  messageId?: string;
  /** Files sent with the mail (a scheduled report's workbook); the outbox keeps only the text. */
  attachments?: { filename: string; content: Buffer; contentType: string }[];
}

/** SMTP connections kept open and reused at once (nodemailer's pool), unless SMTP_URL says otherwise. */
export const SMTP_POOL_CONNECTIONS = 8;

/**
 * SMTP_URL with the pool's defaults added where the URL sets none of its own: `pool=true` (connections
 * are kept open and reused, not one connection with its greeting and EHLO per mail; `pool=false` turns
 * it off), `maxConnections` (SMTP_POOL_CONNECTIONS) and `maxRequeues=1` (a mail whose pooled connection
 * closed under it is tried once more on a fresh one, then fails to the caller, whose retries take over;
 * nodemailer's own default requeues it without end). Added to the URL because nodemailer reads a URL's
 * options only from the URL: the other keys of an object with `url` are ignored.
 */
export function pooledSmtpUrl(url: string): string {
  let params: URLSearchParams;
  try {
    params = new URL(url).searchParams;
  } catch {
    return url;
  }
  const defaults: Array<[string, string]> = [
    ['pool', 'true'],
    ['maxConnections', String(SMTP_POOL_CONNECTIONS)],
    ['maxRequeues', '1'],
  ];
  const add = defaults.filter(([key]) => !params.has(key));
  if (add.length === 0) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${add.map(([key, value]) => `${key}=${value}`).join('&')}`;
}

interface SocketOptions {
  host?: string;
  port?: number;
  secure?: boolean;
  localAddress?: string;
  connectionTimeout?: number;
}

/**
 * SMTP connections with TCP_NODELAY (nodemailer's `getSocket`; it still greets, upgrades to TLS and
 * authenticates on the socket). nodemailer writes a mail in several chunks, and under Nagle's algorithm
 * the last small one (the ending dot) waits for the server's delayed ACK of the one before: 40 ms or
 * more per mail in which the connection does nothing.
 */
function connectNoDelay(
  options: SocketOptions,
  callback: (err: Error | null, socketOptions?: { connection: Socket }) => void,
) {
  const socket = connect({
    host: options.host || 'localhost',
    port: Number(options.port) || (options.secure ? 465 : 587),
    localAddress: options.localAddress,
    noDelay: true,
  });
  const fail = (error: Error) => {
    clearTimeout(timer);
    callback(error);
  };
  const timer = setTimeout(
    () => socket.destroy(new Error('Connection timeout')),
    options.connectionTimeout || 120_000,
  );
  socket.once('error', fail);
  socket.once('connect', () => {
    clearTimeout(timer);
    socket.off('error', fail);
    callback(null, { connection: socket });
  });
}

/**
 * Every mail goes to the outbox table first. With SMTP_URL it is then delivered by SMTP and marked
 * sent (or its error recorded); without it the text (with the link) is written to the log, so a fresh
 * machine can still confirm an account.
 */
export class Mailer {
  private readonly transport: Transporter | undefined;
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    private readonly opts: { smtpUrl?: string; from: string },
  ) {
    this.transport = opts.smtpUrl ? nodemailer.createTransport(pooledSmtpUrl(opts.smtpUrl)) : undefined;
    // Not through a proxy (`proxy=` in SMTP_URL): nodemailer's own getSocket reaches it.
    if (this.transport && !new URLSearchParams(opts.smtpUrl?.split('?')[1] ?? '').has('proxy'))
      (this.transport.transporter as { getSocket?: typeof connectNoDelay }).getSocket = connectNoDelay;
  }

  /** Records the mail and starts delivery; the returned promise resolves once it is recorded. */
  async send(mail: OutgoingMail): Promise<number> {
    const [row] = await this.db
      .insert(mailOutbox)
      .values({ to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, kind: mail.kind })
      .returning({ id: mailOutbox.id });
    const id = row!.id;
    if (!this.transport) {
      this.log.info(
        { mailId: id, to: mail.to, kind: mail.kind },
        `Mail not sent (SMTP_URL is not set):\n${mail.text}`,
      );
      return id;
    }
    const delivery = this.deliver(id, mail).finally(() => this.pending.delete(delivery));
    this.pending.add(delivery);
    return id;
  }

  /** MAIL_FROM: the sender of every mail without one of its own. */
  get defaultFrom(): string {
    return this.opts.from;
  }

  /** Whether mail goes out by SMTP here (otherwise only to the log). */
  get delivers(): boolean {
    return this.transport !== undefined;
  }

  /**
   * Records the mail and delivers it before resolving (the notification jobs: their row is marked sent
   * only after SMTP accepted it). Throws when SMTP refuses; without SMTP_URL the text goes to the log.
   */
  async sendNow(mail: OutgoingMail): Promise<number> {
    const [id] = await this.record([mail]);
    if (await this.transmit(id!, mail)) await this.markSent([id!]);
    return id!;
  }

  /**
   * sendNow() in its three steps, for a job sending many mails (the notification digests): several
   * mails recorded in the outbox in one statement; their ids, in order.
   */
  async record(mails: OutgoingMail[]): Promise<number[]> {
    if (mails.length === 0) return [];
    const rows = await this.db
      .insert(mailOutbox)
      .values(
        mails.map((mail) => ({
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          kind: mail.kind,
        })),
      )
      .returning({ id: mailOutbox.id });
    return rows.map((row) => row.id);
  }

  /**
   * Delivers a recorded mail by SMTP: true once SMTP accepted it (markSent() records that), false without
   * SMTP_URL (the text went to the log). Throws when SMTP refuses, after recording the error.
   */
  async transmit(id: number, mail: OutgoingMail): Promise<boolean> {
    if (!this.transport) {
      this.log.info(
        { mailId: id, to: mail.to, kind: mail.kind },
        `Mail not sent (SMTP_URL is not set):\n${mail.text}`,
      );
      return false;
    }
    try {
      await this.transport.sendMail({
        from: mail.from ?? this.opts.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        headers: mail.headers,
        messageId: mail.messageId,
        attachments: mail.attachments,
      });
      return true;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await this.db
        .update(mailOutbox)
        .set({ attempts: sql`${mailOutbox.attempts} + 1`, error: message })
        .where(eq(mailOutbox.id, id));
      throw error;
    }
  }

  /** A recorded mail that will not go out after all: why, in its error. */
  async markUnsent(id: number, reason: string): Promise<void> {
    await this.db.update(mailOutbox).set({ error: reason }).where(eq(mailOutbox.id, id));
  }

  /** Marks recorded mails that SMTP accepted as sent, in one statement. */
  async markSent(ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .update(mailOutbox)
      .set({ sentAt: new Date(), attempts: sql`${mailOutbox.attempts} + 1`, error: null })
      .where(inArray(mailOutbox.id, ids));
  }

  private async deliver(id: number, mail: OutgoingMail): Promise<void> {
    try {
      await this.transport!.sendMail({
        from: mail.from ?? this.opts.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        attachments: mail.attachments,
      });
      await this.db
        .update(mailOutbox)
        .set({ sentAt: new Date(), attempts: sql`${mailOutbox.attempts} + 1`, error: null })
        .where(eq(mailOutbox.id, id));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.log.error({ mailId: id, kind: mail.kind, err: message }, 'Mail delivery failed');
      await this.db
        .update(mailOutbox)
        .set({ attempts: sql`${mailOutbox.attempts} + 1`, error: message })
        .where(eq(mailOutbox.id, id))
        .catch((e: unknown) =>
          this.log.error({ mailId: id, err: String(e) }, 'Could not record mail failure'),
        );
    }
  }

  /** Waits for deliveries in flight (shutdown, tests). */
  async flush(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }

  close(): void {
    this.transport?.close();
  }
}

import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { closeServer, listenLoopback, metaHandshake, type RecordedCall, readCall } from '../emulator-kit';

// TEST-ONLY. A WhatsApp Cloud API (Meta Graph) on 127.0.0.1 with the parts the connector uses, answering
// like Meta does (PROVIDERS.md §3, §8): Graph error envelopes, the 24-hour customer-service window on the
// network's own clock, rate limits, revoked tokens, an outage. It also plays Meta's webhook side: the
// hub.challenge handshake and signed pushes (`X-Hub-Signature-256`, `\uXXXX`-escaped JSON).

export type { RecordedCall } from '../emulator-kit';

interface GraphFailure {
  status: number;
  code: number;
  message: string;
  details?: string;
  subcode?: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The errors tests ask for, with Meta's own texts (PROVIDERS §3 "Error shape"). */
export const GRAPH_ERRORS = {
  // Graph answers OAuthException 190 with HTTP 400 as often as 401: the code decides, not the status.
  expiredToken: {
    status: 400,
    code: 190,
    subcode: 463,
    message: 'Error validating access token: Session has expired on Thursday, 01-Jan-26 00:00:00 PST.',
  },
  pairRateLimit: {
    status: 400,
    code: 131056,
    subcode: 2494055,
    message: '(#131056) (Business Account, Consumer Account) pair rate limit hit',
    details:
      'Message failed to send because there were too many messages sent from this phone number to the same phone number in a short period of time.',
  },
  throughput: { status: 400, code: 130429, message: '(#130429) Rate limit hit' },
  reEngagement: {
    status: 400,
    code: 131047,
    message: '(#131047) Re-engagement message',
    details:
      'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
  },
  unavailable: { status: 503, code: 2, message: 'Service temporarily unavailable' },
} satisfies Record<string, GraphFailure>;

/** JSON the way Meta sends it: `/` and every non-ASCII character escaped (PROVIDERS §3, §8.3). */
export function metaJson(payload: unknown): string {
  return JSON.stringify(payload)
    .replace(/\//g, '\\/')
    .replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

interface Interactive {
  type: string;
  body?: { text?: string };
  action: {
    button?: string;
    buttons?: Array<{ type: string; reply: { id: string; title: string } }>;
    sections?: Array<{ title?: string; rows: Array<{ id: string; title: string; description?: string }> }>;
  };
}

/**
 * Meta's rules for interactive messages: reply buttons 1–3 with unique ids (≤ 256) and titles (≤ 20), body
 * ≤ 1024; a list's button ≤ 20, 1–10 rows in all with unique ids, row titles ≤ 24, descriptions ≤ 72,
 * body ≤ 4096. Returns what is wrong, or null.
 */
function invalidInteractive(value: unknown): string | null {
  const i = value as Interactive | undefined;
  if (!i?.action || !i.body?.text) return 'interactive.body.text';
  const idsOk = (ids: string[]) =>
    new Set(ids).size === ids.length && ids.every((id) => id && id.length <= 256);
  if (i.type === 'button') {
    const buttons = i.action.buttons ?? [];
    if (i.body.text.length > 1024) return 'interactive.body.text';
    if (buttons.length < 1 || buttons.length > 3) return 'interactive.action.buttons';
    if (buttons.some((b) => b.type !== 'reply' || !b.reply?.title || b.reply.title.length > 20))
      return 'interactive.action.buttons.reply.title';
    return idsOk(buttons.map((b) => b.reply.id)) ? null : 'interactive.action.buttons.reply.id';
  }
  if (i.type === 'list') {
    const rows = (i.action.sections ?? []).flatMap((s) => s.rows ?? []);
    if (i.body.text.length > 4096) return 'interactive.body.text';
    if (!i.action.button || i.action.button.length > 20) return 'interactive.action.button';
    if (rows.length < 1 || rows.length > 10) return 'interactive.action.sections.rows';
    if (rows.some((r) => !r.title || r.title.length > 24 || (r.description?.length ?? 0) > 72))
      return 'interactive.action.sections.rows.title';
    return idsOk(rows.map((r) => r.id)) ? null : 'interactive.action.sections.rows.id';
  }
  return 'interactive.type';
}

export class WhatsAppEmulator {
  readonly calls: RecordedCall[] = [];
  /** The network's clock (ms); the 24-hour window is measured on it. */
  clock = Date.now();
  url = '';
  callbackUrl = '';
  isDown = false;
  private readonly tokens = new Set<string>();
  private readonly failures: GraphFailure[] = [];
  /** When each customer last wrote to the number: the start of the 24-hour window. */
  private readonly lastInbound = new Map<string, number>();
  /** Media customers sent, by media id (PROVIDERS §3 media: GET /{media-id}, then GET <url>). */
  private readonly media = new Map<string, { body: Buffer; mime: string }>();
  private seq = 0;
  private server: Server | undefined;

  constructor(
    readonly number: { phoneNumberId: string; displayPhoneNumber: string; verifiedName: string },
    readonly appSecret: string,
    accessToken: string,
  ) {
    this.tokens.add(accessToken);
  }

  static async start(opts: { phoneNumberId: string; accessToken: string; appSecret: string }) {
    const emulator = new WhatsAppEmulator(
      {
        phoneNumberId: opts.phoneNumberId,
        displayPhoneNumber: '+1 555-078-3881',
        verifiedName: 'Otklik Shop',
      },
      opts.appSecret,
      opts.accessToken,
    );
    emulator.server = createServer((req, res) => void emulator.handle(req, res));
    emulator.url = await listenLoopback(emulator.server);
    return emulator;
  }

  close() {
    return closeServer(this.server);
  }

  addToken(token: string) {
    this.tokens.add(token);
  }
  revokeToken(token: string) {
    this.tokens.delete(token);
  }
  /** The next `times` API calls answer with `failure`. */
  failNext(failure: GraphFailure, times = 1) {
    for (let i = 0; i < times; i++) this.failures.push(failure);
  }
  advance(ms: number) {
    this.clock += ms;
  }
  sent(): RecordedCall[] {
    return this.calls.filter((c) => c.method === 'POST' && c.path.endsWith('/messages'));
  }

  /** Saving the callback in the app dashboard: Meta's GET handshake must echo the challenge. */
  async subscribe(callbackUrl: string, verifyToken: string) {
    const answer = await metaHandshake(callbackUrl, verifyToken);
    if (answer.verified) this.callbackUrl = callbackUrl;
    return answer;
  }

  /** POSTs a payload to the callback, signed with the app secret unless `signature` overrides it. */
  async push(payload: unknown, opts: { signature?: string } = {}) {
    const raw = metaJson(payload);
    const signature = `sha256=${createHmac('sha256', this.appSecret).update(raw).digest('hex')}`;
    const res = await fetch(this.callbackUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': opts.signature ?? signature },
      body: raw,
    });
    return { status: res.status, body: await res.text() };
  }

  private envelope(value: Record<string, unknown>) {
    const metadata = {
      display_phone_number: this.number.displayPhoneNumber.replace(/\D/g, ''),
      phone_number_id: this.number.phoneNumberId,
    };
    return {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '102290129340398',
          changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata, ...value } }],
        },
      ],
    };
  }

  /** A customer writes (`message` is the type-specific part, text by default); opens the 24-hour window. */
  async pushMessage(opts: {
    from: string;
    name?: string;
    text?: string;
    message?: Record<string, unknown>;
    id?: string;
  }) {
    const id = opts.id ?? this.wamid();
    this.lastInbound.set(opts.from, this.clock);
    const message = {
      from: opts.from,
      id,
      timestamp: String(Math.floor(this.clock / 1000)),
      ...(opts.message ?? { type: 'text', text: { body: opts.text ?? '' } }),
    };
    const result = await this.push(
      this.envelope({
        contacts: [{ profile: { name: opts.name ?? 'Customer' }, wa_id: opts.from }],
        messages: [message],
      }),
    );
    return { ...result, id };
  }

  /**
   * A customer taps a reply button or picks a list row of the latest interactive message sent to them:
   * the answer is an `interactive` message with button_reply / list_reply {id, title}.
   */
  async customerTaps(from: string, title: string) {
    const last = this.sent()
      .map((c) => c.body as Record<string, unknown> | undefined)
      .filter((b) => b?.to === from && b.type === 'interactive')
      .at(-1)?.interactive as Interactive | undefined;
    if (!last) throw new Error(`WhatsApp emulator: nothing interactive was sent to ${from}`);
    const choices =
      last.type === 'button'
        ? (last.action.buttons ?? []).map((b) => b.reply)
        : (last.action.sections ?? []).flatMap((s) => s.rows);
    const choice = choices.find((c) => c.title === title);
    if (!choice) throw new Error(`WhatsApp emulator: no option "${title}" shown to ${from}`);
    const kind = last.type === 'button' ? 'button_reply' : 'list_reply';
    return this.pushMessage({
      from,
      message: {
        type: 'interactive',
        interactive: { type: kind, [kind]: { id: choice.id, title: choice.title } },
      },
    });
  }

  /** A file a customer sent: its media id, for an inbound image/document message. */
  addMedia(body: Buffer, mime: string): string {
    const id = String(1_000_000_000_000 + this.media.size + Math.floor(Math.random() * 1e9));
    this.media.set(id, { body, mime });
    return id;
  }

  /** A status of a message the business sent. */
  pushStatus(
    to: string,
    id: string,
    status: 'sent' | 'delivered' | 'read' | 'failed',
    errors?: Array<{ code: number; title: string }>,
  ) {
    const statuses = [
      {
        id,
        status,
        timestamp: String(Math.floor(this.clock / 1000)),
        recipient_id: to,
        ...(errors ? { errors } : {}),
      },
    ];
    return this.push(this.envelope({ statuses }));
  }

  private wamid() {
    this.seq += 1;
    return `wamid.${Buffer.from(`${this.clock}-${this.seq}-${randomBytes(4).toString('hex')}`).toString('base64')}`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const { url, call } = await readCall(req, this.url);
    const { body } = call;
    this.calls.push(call);
    const [version, node, edge] = url.pathname.split('/').filter(Boolean);
    const reply = (status: number, payload: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
    const fail = (f: GraphFailure) =>
      reply(f.status, {
        error: {
          message: f.message,
          type: 'OAuthException',
          code: f.code,
          ...(f.details ? { error_data: { messaging_product: 'whatsapp', details: f.details } } : {}),
          ...(f.subcode ? { error_subcode: f.subcode } : {}),
          fbtrace_id: randomBytes(8).toString('base64url'),
        },
      });
    if (this.isDown) return fail(GRAPH_ERRORS.unavailable);
    const token = /^Bearer (.+)$/.exec(call.authorization ?? '')?.[1];
    if (!token)
      return fail({
        status: 400,
        code: 190,
        message: 'Invalid OAuth access token - Cannot parse access token',
      });
    if (!this.tokens.has(token)) return fail(GRAPH_ERRORS.expiredToken);
    const queued = this.failures.shift();
    if (queued) return fail(queued);
    if (call.method === 'GET' && version === 'media-download') {
      const file = this.media.get(node ?? '');
      if (!file) return fail({ status: 404, code: 100, message: 'Media not found' });
      res
        .writeHead(200, { 'content-type': file.mime, 'content-length': String(file.body.length) })
        .end(file.body);
      return;
    }
    const mediaFile = call.method === 'GET' && !edge ? this.media.get(node ?? '') : undefined;
    if (mediaFile) {
      return reply(200, {
        messaging_product: 'whatsapp',
        url: `${this.url}/media-download/${node}`,
        mime_type: mediaFile.mime,
        sha256: createHash('sha256').update(mediaFile.body).digest('hex'),
        file_size: mediaFile.body.length,
        id: node,
      });
    }
    if (!version?.match(/^v\d+\.\d+$/) || node !== this.number.phoneNumberId) {
      return fail({
        status: 400,
        code: 100,
        subcode: 33,
        message: `Unsupported ${call.method.toLowerCase()} request. Object with ID '${node}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
      });
    }
    if (call.method === 'GET' && !edge) {
      const fields = (call.query.fields ?? '').split(',');
      return reply(200, {
        id: this.number.phoneNumberId,
        ...(fields.includes('display_phone_number')
          ? { display_phone_number: this.number.displayPhoneNumber }
          : {}),
        ...(fields.includes('verified_name') ? { verified_name: this.number.verifiedName } : {}),
      });
    }
    if (call.method === 'POST' && edge === 'messages') return this.send(body ?? {}, reply, fail);
    return fail({ status: 400, code: 100, message: 'Unsupported request' });
  }

  private send(
    body: Record<string, unknown>,
    reply: (s: number, p: unknown) => void,
    fail: (f: GraphFailure) => void,
  ) {
    if (body.messaging_product !== 'whatsapp') {
      return fail({ status: 400, code: 100, message: '(#100) The parameter messaging_product is required.' });
    }
    if (body.status === 'read') return reply(200, { success: true });
    const to = String(body.to ?? '');
    const type = String(body.type ?? 'text');
    const text = (body.text as { body?: unknown } | undefined)?.body;
    if (type === 'text' && (typeof text !== 'string' || !text || text.length > 4096)) {
      return fail({
        status: 400,
        code: 100,
        message: "(#100) Param text['body'] must be between 1 and 4096 characters",
      });
    }
    if (type === 'interactive') {
      const invalid = invalidInteractive(body.interactive);
      if (invalid)
        return fail({
          status: 400,
          code: 131009,
          message: `(#131009) Parameter value is not valid: ${invalid}`,
        });
    }
    // PROVIDERS §3 "Limits": free-form messages only within 24 h of the customer's last message.
    const since = this.lastInbound.get(to);
    if (type !== 'template' && (since === undefined || this.clock - since > DAY_MS))
      return fail(GRAPH_ERRORS.reEngagement);
    const id = this.wamid();
    return reply(200, {
      messaging_product: 'whatsapp',
      contacts: [{ input: to, wa_id: to }],
      messages: [{ id, message_status: 'accepted' }],
    });
  }
}

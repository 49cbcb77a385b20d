import { deliveryChange } from '../inbound';
import { downloadMedia, MediaTooLarge } from '../media';
import {
  type ChatRef,
  type Connector,
  type ConnectorContext,
  ConnectorError,
  type OutgoingContent,
  type SentRef,
  WebhookRejected,
} from '../types';
import { webhookUrl } from '../updates';
import { type GraphAuth, getMedia, getPhoneNumber, sendMessage } from './client';
import { interactiveBody } from './interactive';
import { MEDIA_REF, mapWebhook, webhookPayloadSchema } from './mapping';
import { answerHandshake, verifySignature } from './webhook';

// WhatsApp Cloud API (PROVIDERS.md §3): private messages only. Webhooks are configured by an
// administrator in Meta's app dashboard (callback URL + verify token), not through the API, so there is
// nothing to activate; the handshake and the signature are checked per account. No history API, no
// delete or edit of sent messages.

const auth = (ctx: Pick<ConnectorContext, 'config' | 'fetch' | 'credentials'>): GraphAuth => ({
  config: ctx.config,
  fetch: ctx.fetch,
  accessToken: ctx.credentials.access_token ?? '',
});

function phoneNumberIdOf(ctx: ConnectorContext): string {
  const id = ctx.credentials.phone_number_id ?? ctx.object.externalId;
  if (!id)
    throw new ConnectorError('auth', 'WhatsApp: the phone number ID is missing, reconnect the account', {
      reason: { key: 'failure.reconnect', params: { network: 'WhatsApp' } },
    });
  return id;
}

/** The media kinds Cloud API sends by link, and whether they take a caption (PROVIDERS §3 "Sending"). */
const MEDIA: Record<string, { type: string; caption: boolean }> = {
  image: { type: 'image', caption: true },
  video: { type: 'video', caption: true },
  document: { type: 'document', caption: true },
  audio: { type: 'audio', caption: false },
  voice: { type: 'audio', caption: false },
  sticker: { type: 'sticker', caption: false },
};

async function sendContent(ctx: ConnectorContext, to: string, content: OutgoingContent): Promise<SentRef> {
  const phoneNumberId = phoneNumberIdOf(ctx);
  if (content.buttons?.some((row) => row.length > 0) && content.attachments.length === 0) {
    return { externalId: await sendMessage(auth(ctx), phoneNumberId, interactiveBody(to, content)) };
  }
  const file = content.attachments[0];
  const media = file ? MEDIA[file.type] : undefined;
  if (!file || !media) {
    const body = [content.text, ...content.attachments.map((a) => a.url)].filter(Boolean).join('\n');
    const id = await sendMessage(auth(ctx), phoneNumberId, {
      to,
      type: 'text',
      text: { body, preview_url: false },
    });
    return { externalId: id };
  }
  let textId: string | null = null;
  if (content.text && !media.caption) {
    textId = await sendMessage(auth(ctx), phoneNumberId, { to, type: 'text', text: { body: content.text } });
  }
  const id = await sendMessage(auth(ctx), phoneNumberId, {
    to,
    type: media.type,
    [media.type]: {
      link: file.url,
      ...(media.caption && content.text ? { caption: content.text } : {}),
      ...(media.type === 'document' && file.name ? { filename: file.name } : {}),
    },
  });
  return { externalId: textId ?? id };
}

export const whatsappConnector: Connector & {
  setupInstructions(ctx: ConnectorContext): { webhook_url: string; verify_token: string };
} = {
  id: 'whatsapp',

  async verifyCredentials(ctx, input) {
    const phoneNumberId = input.phone_number_id ?? '';
    const accessToken = input.access_token ?? '';
    const info = await getPhoneNumber({ config: ctx.config, fetch: ctx.fetch, accessToken }, phoneNumberId);
    const digits = (info.display_phone_number ?? '').replace(/\D/g, '');
    return {
      externalId: info.id || phoneNumberId,
      name: info.verified_name || info.display_phone_number || phoneNumberId,
      screenName: info.display_phone_number,
      url: digits ? `https://wa.me/${digits}` : undefined,
      credentials: {
        phone_number_id: phoneNumberId,
        access_token: accessToken,
        app_secret: input.app_secret ?? '',
      },
    };
  },

  /** What the administrator pastes into Meta's app dashboard (Webhooks → Callback URL, Verify token). */
  setupInstructions(ctx) {
    return {
      webhook_url: webhookUrl(ctx.config, ctx.object),
      verify_token: ctx.credentials.webhook_secret ?? '',
    };
  },

  /** `whatsapp-media:<id>` → `GET /{media-id}` → `GET <url>` with the Bearer token (PROVIDERS §3). */
  async fetchMedia(ctx, ref, opts) {
    if (!ref.startsWith(MEDIA_REF))
      throw new ConnectorError('permanent', `WhatsApp: not a media reference: ${ref}`, {
        reason: { key: 'failure.badReference', params: { network: 'WhatsApp' }, detail: ref },
      });
    const media = await getMedia(auth(ctx), ref.slice(MEDIA_REF.length));
    if ((media.file_size ?? 0) > opts.maxBytes) throw new MediaTooLarge(opts.maxBytes);
    const file = await downloadMedia(ctx.fetch, media.url, {
      maxBytes: opts.maxBytes,
      headers: { authorization: `Bearer ${ctx.credentials.access_token ?? ''}` },
      what: 'WhatsApp',
    });
    return { body: file.body, contentType: media.mime_type ?? file.contentType };
  },

  async handleWebhook(ctx, request) {
    if (request.method === 'GET') {
      const challenge = answerHandshake(request, ctx.credentials.webhook_secret ?? '');
      return { status: 200, body: challenge, events: [] };
    }
    verifySignature(request, ctx.credentials.app_secret ?? '');
    let json: unknown;
    try {
      json = JSON.parse(request.rawBody.toString('utf8'));
    } catch {
      throw new WebhookRejected('WhatsApp webhook: body is not JSON');
    }
    const parsed = webhookPayloadSchema.safeParse(json);
    // A signed payload of a shape we do not know (a new field): accept it, store nothing.
    if (!parsed.success) return { status: 200, body: 'ok', events: [] };
    const { events, deliveries } = mapWebhook(parsed.data, phoneNumberIdOf(ctx));
    // Statuses of what we sent (sent → delivered → read, or failed with Meta's reason) update our messages.
    return { status: 200, body: 'ok', events: [...events, ...deliveries.map(deliveryChange)] };
  },

  async sendReply() {
    throw new ConnectorError('permanent', 'WhatsApp has no comments to reply to', {
      reason: { key: 'failure.notSupported', params: { network: 'WhatsApp' } },
    });
  },

  /** Interactive reply buttons or a list (interactive.ts); the answer carries the option's id back. */
  buttons: true,

  async sendMessage(ctx, chat: ChatRef, content) {
    return sendContent(ctx, chat.externalId, content);
  },

  /** `type:"reaction"`; an empty emoji takes ours back (PROVIDERS §3). */
  async react(ctx, target, value) {
    if (target.kind !== 'message')
      throw new ConnectorError('permanent', 'WhatsApp has no comments to react to', {
        reason: { key: 'failure.notSupported', params: { network: 'WhatsApp' } },
      });
    await sendMessage(auth(ctx), phoneNumberIdOf(ctx), {
      to: target.chat.externalId,
      type: 'reaction',
      reaction: { message_id: target.messageExternalId, emoji: value ?? '' },
    });
  },
};

import { metaSignature } from '../../src/providers/facebook/meta';
import { FacebookEmulator, FB_ERRORS, type GraphCall, type RawCall } from '../facebook/emulator';
import { metaJson } from '../whatsapp/emulator';
import { InstagramLoginSide } from './emulator-login';

// TEST-ONLY. Instagram professional accounts on top of the Facebook emulator (PROVIDERS.md §4c, "Instagram
// API with Facebook Login"): the same dialog, tokens and Page tokens; a Page's linked Instagram account
// (`GET /{page-id}?fields=instagram_business_account`), media comments (replies, hide, delete), mention
// look-ups, DMs through `POST /{page-id}/messages` with the 24-hour window and private replies; webhooks
// with `object: "instagram"` signed with the app secret like the Page ones. Instagram Login (accounts
// without a Page, their own tokens on graph.instagram.com, deliveries signed with the Instagram app
// secret) is emulator-login.ts, on the same port.

export interface IgAccount {
  id: string;
  username: string;
  pageId: string;
}

export interface IgMedia {
  id: string;
  igId: string;
  caption: string;
  timestamp: number;
}

export interface IgComment {
  id: string;
  mediaId: string;
  /** The top-level comment a reply belongs to (Instagram threads one level deep). */
  parentId?: string;
  from: { id: string; username: string };
  text: string;
  timestamp: number;
  hidden: boolean;
  deleted: boolean;
}

export interface IgSent {
  igId: string;
  recipient: { id?: string; comment_id?: string };
  text: string;
  mid: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const IG_PERMISSIONS = ['instagram_basic', 'instagram_manage_comments', 'instagram_manage_messages'];
const FB_PERMISSIONS = [
  'pages_show_list',
  'pages_manage_metadata',
  'pages_read_engagement',
  'pages_read_user_content',
  'pages_manage_engagement',
  'pages_messaging',
  'public_profile',
];

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+0000');

export class InstagramEmulator extends FacebookEmulator {
  /** Linked accounts by their Page. */
  readonly accounts = new Map<string, IgAccount>();
  readonly media = new Map<string, IgMedia>();
  readonly comments = new Map<string, IgComment>();
  readonly sentDirect: IgSent[] = [];
  private readonly lastInbound = new Map<string, number>();
  private readonly privateReplied = new Set<string>();
  readonly login = new InstagramLoginSide({
    clock: () => this.network.clock,
    accountByIgId: (igId) => this.accountById(igId),
    graph: (call) => this.extraGraph(call),
  });

  /** The server's environment: the Facebook app's, and the Instagram app's hosts under their prefixes. */
  override env(verifyToken = 'fb-verify-token'): Record<string, string> {
    return {
      ...super.env(verifyToken),
      INSTAGRAM_APP_ID: this.login.appId,
      INSTAGRAM_APP_SECRET: this.login.appSecret,
      INSTAGRAM_OAUTH_URL: `${this.url}/ig-www`,
      INSTAGRAM_TOKEN_URL: `${this.url}/ig-api`,
      INSTAGRAM_GRAPH_URL: `${this.url}/ig-graph`,
    };
  }

  /** A professional account without a Facebook Page, who signs in with Instagram Login. */
  addLoginAccount(username: string): IgAccount {
    const account: IgAccount = { id: this.igId(), username, pageId: `no-page-${this.network.next()}` };
    this.accounts.set(account.pageId, account);
    this.login.consenting = account;
    return account;
  }

  protected override extraRoute(call: RawCall): boolean {
    return this.login.handle(call);
  }

  /** Deliveries of Instagram Login accounts are signed with the Instagram app secret. */
  override push(payload: unknown, opts: { signature?: string } = {}) {
    const entry = (payload as { entry?: Array<{ id?: string }> }).entry?.[0];
    if (!opts.signature && entry?.id && this.login.igIds.has(entry.id))
      return super.push(payload, { signature: metaSignature(metaJson(payload), this.login.appSecret) });
    return super.push(payload, opts);
  }

  private igId() {
    return `1784${this.network.next().padStart(11, '0')}`;
  }

  /** A Page with its linked Instagram professional account. */
  addAccount(name: string, username: string) {
    const page = this.network.addPage({ id: `10${this.network.next()}`, name });
    const account: IgAccount = { id: this.igId(), username, pageId: page.id };
    this.accounts.set(page.id, account);
    return { page, account };
  }

  addMedia(account: IgAccount, caption: string): IgMedia {
    const media: IgMedia = {
      id: `18${this.network.next()}`,
      igId: account.id,
      caption,
      timestamp: this.network.clock,
    };
    this.media.set(media.id, media);
    return media;
  }

  addComment(
    media: IgMedia,
    opts: { from: { id: string; username: string }; text: string; parentId?: string },
  ) {
    const parent = opts.parentId ? this.comments.get(opts.parentId) : undefined;
    const comment: IgComment = {
      id: `179${this.network.next()}`,
      mediaId: media.id,
      ...(opts.parentId ? { parentId: parent?.parentId ?? opts.parentId } : {}),
      from: opts.from,
      text: opts.text,
      timestamp: this.network.clock,
      hidden: false,
      deleted: false,
    };
    this.comments.set(comment.id, comment);
    return comment;
  }

  private accountById(igId: string) {
    return [...this.accounts.values()].find((a) => a.id === igId);
  }

  /** The `comments` change Meta sends for a new comment (entry id: the professional account). */
  commentPayload(comment: IgComment) {
    const media = this.media.get(comment.mediaId)!;
    return {
      object: 'instagram',
      entry: [
        {
          id: media.igId,
          time: Math.floor(this.network.clock / 1000),
          changes: [
            {
              field: 'comments',
              value: {
                id: comment.id,
                from: { id: comment.from.id, username: comment.from.username },
                media: { id: media.id, media_product_type: 'FEED' },
                ...(comment.parentId ? { parent_id: comment.parentId } : {}),
                text: comment.text,
              },
            },
          ],
        },
      ],
    };
  }

  /** Someone comments on the account's media (or replies to `parentId`); the webhook goes out. */
  async igComment(
    media: IgMedia,
    opts: { from: { id: string; username: string }; text: string; parentId?: string },
  ) {
    const comment = this.addComment(media, opts);
    const payload = this.commentPayload(comment);
    return { comment, payload, ...(await this.push(payload)) };
  }

  /**
   * Someone @mentions the account: in a comment on someone else's media (`comment_id` + `media_id`) or
   * in a caption (`media_id` only). The details are fetched through `mentioned_comment`/`mentioned_media`.
   */
  async igMention(
    account: IgAccount,
    opts: { from: { id: string; username: string }; text: string; inCaption?: boolean },
  ) {
    const foreign: IgMedia = {
      id: `18${this.network.next()}`,
      igId: opts.from.id,
      caption: '',
      timestamp: this.network.clock,
    };
    if (opts.inCaption) foreign.caption = opts.text;
    this.media.set(foreign.id, foreign);
    const comment = opts.inCaption
      ? undefined
      : this.addComment(foreign, { from: opts.from, text: opts.text });
    const payload = {
      object: 'instagram',
      entry: [
        {
          id: account.id,
          time: Math.floor(this.network.clock / 1000),
          changes: [
            {
              field: 'mentions',
              value: { media_id: foreign.id, ...(comment ? { comment_id: comment.id } : {}) },
            },
          ],
        },
      ],
    };
    return { media: foreign, comment, payload, ...(await this.push(payload)) };
  }

  /** A DM to the account (opens the 24-hour window); `extra` adds a story reply or a story mention. */
  async igMessage(
    account: IgAccount,
    igsid: string,
    text: string,
    extra: { storyReply?: string; storyMention?: string } = {},
  ) {
    this.lastInbound.set(`${account.id}:${igsid}`, this.network.clock);
    const mid = `aWdf${this.network.next()}`;
    const message: Record<string, unknown> = { mid, ...(text ? { text } : {}) };
    if (extra.storyReply) message.reply_to = { story: { id: `story-${mid}`, url: extra.storyReply } };
    if (extra.storyMention)
      message.attachments = [{ type: 'story_mention', payload: { url: extra.storyMention } }];
    const payload = {
      object: 'instagram',
      entry: [
        {
          id: account.id,
          time: this.network.clock,
          messaging: [
            { sender: { id: igsid }, recipient: { id: account.id }, timestamp: this.network.clock, message },
          ],
        },
      ],
    };
    return { mid, payload, ...(await this.push(payload)) };
  }

  protected override extraGraph(call: GraphCall): boolean {
    const { method, parts, query, body, owner, send, fail } = call;
    if (owner.kind === 'user') {
      if (call.path !== '/me/permissions') return false;
      const all = [...FB_PERMISSIONS, ...IG_PERMISSIONS];
      send(200, {
        data: all.map((permission) => ({
          permission,
          status: this.network.declined.includes(permission) ? 'declined' : 'granted',
        })),
      });
      return true;
    }
    const pageId = owner.pageId!;
    const account = this.accounts.get(pageId);
    const [node, edge] = parts;
    if (!node) return false;
    const fields = String(query.fields ?? '');
    if (node === pageId && !edge && method === 'GET' && fields.includes('instagram_business_account')) {
      const page = this.network.pages.get(pageId)!;
      send(200, {
        id: pageId,
        name: page.name,
        ...(account ? { instagram_business_account: { id: account.id } } : {}),
      });
      return true;
    }
    if (node === pageId && edge === 'messages' && method === 'POST' && account) {
      const recipient = (body?.recipient ?? {}) as { id?: string; comment_id?: string };
      const isIg = recipient.comment_id
        ? this.comments.has(recipient.comment_id)
        : this.lastInbound.has(`${account.id}:${recipient.id}`);
      if (!isIg) return false;
      const text = String((body?.message as { text?: string } | undefined)?.text ?? '');
      const mid = `aWdf${this.network.next()}`;
      if (recipient.comment_id) {
        const comment = this.comments.get(recipient.comment_id)!;
        if (this.privateReplied.has(comment.id) || this.network.clock - comment.timestamp > 7 * DAY_MS) {
          fail({ status: 400, code: 10900, message: 'Activity already replied to' });
          return true;
        }
        this.privateReplied.add(comment.id);
      } else {
        const last = this.lastInbound.get(`${account.id}:${recipient.id}`)!;
        if (this.network.clock - last > DAY_MS) {
          fail(FB_ERRORS.outsideWindow);
          return true;
        }
      }
      this.sentDirect.push({ igId: account.id, recipient, text, mid });
      // A private reply answers with the commenter's Instagram-scoped id, the Direct thread's id from then on.
      const to = recipient.comment_id ? this.comments.get(recipient.comment_id)!.from.id : recipient.id;
      send(200, { recipient_id: to, message_id: mid });
      return true;
    }
    if (account && node === account.id && edge === 'mentions' && method === 'POST') {
      const args = { ...query, ...(body ?? {}) } as Record<string, string>;
      const media = this.media.get(args.media_id ?? '');
      const target = args.comment_id ? this.comments.get(args.comment_id) : undefined;
      if (!media || (args.comment_id && !target))
        return notFound(fail, args.comment_id ?? args.media_id ?? '');
      const created = this.addComment(media, {
        from: { id: account.id, username: account.username },
        text: String(args.message ?? ''),
        ...(target ? { parentId: target.id } : {}),
      });
      send(200, { id: created.id });
      return true;
    }
    if (account && node === account.id && edge === 'media' && method === 'GET') {
      const list = [...this.media.values()]
        .filter((m) => m.igId === account.id)
        .sort((a, b) => b.timestamp - a.timestamp)
        .slice(0, Number(query.limit ?? 25));
      send(200, {
        data: list.map((m) => ({
          id: m.id,
          caption: m.caption,
          permalink: `https://www.instagram.com/p/${m.id}/`,
          timestamp: iso(m.timestamp),
        })),
      });
      return true;
    }
    const ownMedia = this.media.get(node);
    if (ownMedia && edge === 'comments' && method === 'GET') {
      if (this.accountById(ownMedia.igId)?.pageId !== pageId) return notFound(fail, node);
      const row = (c: IgComment) => ({
        id: c.id,
        text: c.text,
        timestamp: iso(c.timestamp),
        username: c.from.username,
        from: c.from,
      });
      const live = [...this.comments.values()].filter((c) => c.mediaId === node && !c.deleted);
      const data = live
        .filter((c) => !c.parentId)
        .sort((a, b) => b.timestamp - a.timestamp)
        .slice(0, Number(query.limit ?? 25))
        .map((c) => ({ ...row(c), replies: { data: live.filter((r) => r.parentId === c.id).map(row) } }));
      send(200, { data });
      return true;
    }
    if (account && node === account.id && !edge && method === 'GET') {
      const mentioned = /mentioned_(comment|media)\.(?:comment|media)_id\(([^)]+)\)/.exec(fields);
      if (mentioned?.[1] === 'comment') {
        const c = this.comments.get(mentioned[2]!);
        if (!c) return notFound(fail, mentioned[2]!);
        send(200, {
          id: account.id,
          mentioned_comment: {
            id: c.id,
            text: c.text,
            username: c.from.username,
            timestamp: iso(c.timestamp),
            media: { id: c.mediaId },
          },
        });
        return true;
      }
      if (mentioned?.[1] === 'media') {
        const m = this.media.get(mentioned[2]!);
        if (!m) return notFound(fail, mentioned[2]!);
        send(200, {
          id: account.id,
          mentioned_media: {
            id: m.id,
            caption: m.caption,
            username: `user${m.igId}`,
            timestamp: iso(m.timestamp),
          },
        });
        return true;
      }
      send(200, { id: account.id, username: account.username, name: account.username });
      return true;
    }
    const comment = this.comments.get(node);
    if (!comment) return false;
    const media = this.media.get(comment.mediaId)!;
    const mine = this.accountById(media.igId)?.pageId === pageId;
    if (comment.deleted || !mine) return notFound(fail, node);
    if (edge === 'replies' && method === 'POST') {
      if (comment.hidden) {
        fail({ status: 400, code: 100, message: 'Cannot reply to a hidden comment' });
        return true;
      }
      const created = this.addComment(media, {
        from: { id: account!.id, username: account!.username },
        text: String(query.message ?? body?.message ?? ''),
        parentId: comment.id,
      });
      send(200, { id: created.id });
      return true;
    }
    if (!edge && method === 'POST') {
      const hide = query.hide ?? body?.hide;
      if (hide === undefined) return false;
      comment.hidden = String(hide) === 'true';
      send(200, { success: true });
      return true;
    }
    if (!edge && method === 'DELETE') {
      comment.deleted = true;
      send(200, { success: true });
      return true;
    }
    return false;
  }
}

/** Graph's answer for an id that is gone or not ours; true (the call is answered). */
function notFound(fail: GraphCall['fail'], id: string): true {
  fail({
    status: 400,
    code: 100,
    subcode: 33,
    message: `Unsupported request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
  });
  return true;
}

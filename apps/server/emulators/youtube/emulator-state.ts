import { randomBytes } from 'node:crypto';

// TEST-ONLY. What the YouTube emulator remembers: Google OAuth clients, codes and tokens, channels,
// comment threads and their replies, and the project's quota units spent today (PROVIDERS.md §5).

export interface EmulatedChannel {
  id: string;
  title: string;
  handle: string;
}

export interface EmulatedComment {
  id: string;
  channelId: string;
  videoId: string;
  parentId: string | null;
  authorChannelId: string;
  authorDisplayName: string;
  textOriginal: string;
  moderationStatus: 'published' | 'heldForReview' | 'likelySpam' | 'rejected';
  publishedAt: string;
  updatedAt: string;
}

interface AccessToken {
  channelId: string;
  clientId: string;
  expiresAt: number;
}

/** PROVIDERS §5: list calls 1 unit; insert, update, setModerationStatus and delete 50 units each. */
export const UNIT_COSTS = { list: 1, write: 50 } as const;

const token = (prefix: string) => `${prefix}${randomBytes(12).toString('base64url')}`;

export class YouTubeNetwork {
  /** The emulator's clock (ms): token expiry is measured against it; tests move it. */
  clock = Date.now();
  readonly clients = new Map<string, string>();
  readonly channels = new Map<string, EmulatedChannel>();
  /** Who is signed in on the consent page and agrees; null refuses (access_denied). */
  consenting: EmulatedChannel | null = null;
  private readonly codes = new Map<string, { clientId: string; channelId: string }>();
  private readonly refreshTokens = new Map<string, { clientId: string; channelId: string }>();
  private readonly accessTokens = new Map<string, AccessToken>();
  readonly comments = new Map<string, EmulatedComment>();
  /** Reply ids by their top-level comment, in the order written. */
  private readonly replyIds = new Map<string, string[]>();
  /** Units spent today by the project and the daily allowance (403 quotaExceeded beyond it). */
  unitsUsed = 0;
  dailyLimit = 10_000;
  /** Units by kind of call, for tests: `list`, `insert`, `setModerationStatus`, `delete`, `update`. */
  readonly unitsByCall = new Map<string, number>();
  accessTokenTtlS = 3_600;
  private seq = 0;

  addClient(id: string, secret: string) {
    this.clients.set(id, secret);
  }

  addChannel(title: string): EmulatedChannel {
    this.seq += 1;
    const channel = { id: `UC${randomBytes(11).toString('base64url')}`, title, handle: `@chan${this.seq}` };
    this.channels.set(channel.id, channel);
    return channel;
  }

  authorize(clientId: string, channel: EmulatedChannel): string {
    const code = token('4/0A');
    this.codes.set(code, { clientId, channelId: channel.id });
    return code;
  }

  private grant(clientId: string, channelId: string, refreshToken?: string) {
    const access = token('ya29.');
    this.accessTokens.set(access, {
      channelId,
      clientId,
      expiresAt: this.clock + this.accessTokenTtlS * 1000,
    });
    return {
      access_token: access,
      expires_in: this.accessTokenTtlS,
      token_type: 'Bearer',
      scope: 'https://www.googleapis.com/auth/youtube.force-ssl',
      ...(refreshToken ? { refresh_token: refreshToken } : {}),
    };
  }

  /** grant_type=authorization_code: a code is spent once. */
  exchangeCode(clientId: string, secret: string, code: string) {
    if (this.clients.get(clientId) !== secret) return 'invalid_client';
    const found = this.codes.get(code);
    this.codes.delete(code);
    if (!found || found.clientId !== clientId) return 'invalid_grant';
    const refresh = token('1//0g');
    this.refreshTokens.set(refresh, found);
    return this.grant(clientId, found.channelId, refresh);
  }

  /** grant_type=refresh_token: a new access token; a revoked refresh token is invalid_grant. */
  refresh(clientId: string, secret: string, refreshToken: string) {
    if (this.clients.get(clientId) !== secret) return 'invalid_client';
    const found = this.refreshTokens.get(refreshToken);
    if (!found || found.clientId !== clientId) return 'invalid_grant';
    return this.grant(clientId, found.channelId);
  }

  /** The channel owner removes the app's access (myaccount.google.com/permissions). */
  revoke(channelId: string) {
    for (const [key, value] of this.refreshTokens)
      if (value.channelId === channelId) this.refreshTokens.delete(key);
    for (const [key, value] of this.accessTokens)
      if (value.channelId === channelId) this.accessTokens.delete(key);
  }

  channelOf(accessToken: string): EmulatedChannel | undefined {
    const found = this.accessTokens.get(accessToken);
    if (!found || found.expiresAt <= this.clock) return undefined;
    return this.channels.get(found.channelId);
  }

  /** A viewer comments on a video of the channel (a new thread), or replies under `parentId`. */
  addComment(opts: {
    channelId: string;
    videoId?: string;
    parentId?: string;
    author?: { channelId: string; name: string };
    text: string;
    at?: Date;
    moderationStatus?: EmulatedComment['moderationStatus'];
    id?: string;
  }): EmulatedComment {
    this.seq += 1;
    const at = (opts.at ?? new Date(this.clock)).toISOString();
    const parent = opts.parentId ? this.comments.get(opts.parentId) : undefined;
    const id =
      opts.id ?? (parent ? `${parent.id}.8x${this.seq}` : `Ugz${this.seq}${randomBytes(6).toString('hex')}`);
    const comment: EmulatedComment = {
      id,
      channelId: opts.channelId,
      videoId: parent?.videoId ?? opts.videoId ?? 'dQw4w9WgXcQ',
      parentId: parent?.id ?? null,
      authorChannelId: opts.author?.channelId ?? `UCviewer${this.seq}`,
      authorDisplayName: opts.author?.name ?? `@viewer${this.seq}`,
      textOriginal: opts.text,
      moderationStatus: opts.moderationStatus ?? 'published',
      publishedAt: at,
      updatedAt: at,
    };
    this.comments.set(id, comment);
    if (comment.parentId)
      this.replyIds.set(comment.parentId, [...(this.replyIds.get(comment.parentId) ?? []), id]);
    return comment;
  }

  /** A comment's replies, oldest first; with `status`, only those in that moderation state. */
  repliesOf(parentId: string, status?: EmulatedComment['moderationStatus']): EmulatedComment[] {
    return (this.replyIds.get(parentId) ?? [])
      .map((id) => this.comments.get(id))
      .filter((c): c is EmulatedComment => c !== undefined && (!status || c.moderationStatus === status))
      .sort((a, b) => a.publishedAt.localeCompare(b.publishedAt));
  }

  /**
   * The channel's threads in one moderation state, newest activity first (order=time). As the Data API
   * documents commentThreads.list's `moderationStatus`: `published` (the default) lists threads whose
   * top-level comment is published; `heldForReview` and `likelySpam` list threads whose top-level
   * comment or at least one reply is in that state. Whether YouTube orders by the top-level comment or
   * by the thread's latest reply is UNCONFIRMED; the emulator takes the latest activity in the list.
   */
  threadsOf(channelId: string, status: EmulatedComment['moderationStatus']): EmulatedComment[] {
    const latest = (c: EmulatedComment) =>
      [c, ...this.repliesOf(c.id, status)].reduce((at, x) => (x.publishedAt > at ? x.publishedAt : at), '');
    return [...this.comments.values()]
      .filter(
        (c) =>
          c.channelId === channelId &&
          !c.parentId &&
          (c.moderationStatus === status ||
            (status !== 'published' &&
              c.moderationStatus !== 'rejected' &&
              this.repliesOf(c.id, status).length > 0)),
      )
      .map((c) => ({ c, at: latest(c) }))
      .sort((a, b) => b.at.localeCompare(a.at) || b.c.id.localeCompare(a.c.id))
      .map(({ c }) => c);
  }

  spend(call: string, units: number): boolean {
    if (this.unitsUsed + units > this.dailyLimit) return false;
    this.unitsUsed += units;
    this.unitsByCall.set(call, (this.unitsByCall.get(call) ?? 0) + units);
    return true;
  }
}

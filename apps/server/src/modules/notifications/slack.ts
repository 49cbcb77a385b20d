import type { SlackChannelWire, SlackInstallWire } from '@otklik/shared';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { notificationSlack } from '../../db/schema';
import { hmacSha256, type Sealer, safeEqual } from '../../lib/crypto';

// Slack notifications (issue 18): an administrator installs the instance's Slack app into a workspace
// for a space (OAuth v2: slack.com/oauth/v2/authorize → /callback/slack → POST /v1/slack/auth, which
// exchanges the code with oauth.v2.access), picks a channel (conversations.list), and the space's
// notifications go there with chat.postMessage — one message per event, saying whom it is for. Slack's
// own requests (/v1/slack/events: the app uninstalled, tokens revoked) are signed with the signing secret.

/** What the bot needs: post (also to public channels it was not invited to) and list channels. */
export const SLACK_SCOPES = 'chat:write,chat:write.public,channels:read,groups:read';
const STATE_TTL_MS = 10 * 60_000;
/** Slack's signed requests older than this are refused (replays). */
export const SLACK_SIGNATURE_MAX_AGE_S = 5 * 60;

/** Slack's answers that no retry mends: the token or the channel is gone; shown as the channel's error. */
const PERMANENT = new Set([
  'token_revoked',
  'invalid_auth',
  'not_authed',
  'account_inactive',
  'channel_not_found',
  'not_in_channel',
  'is_archived',
  'missing_scope',
  'no_permission',
  'team_access_not_granted',
]);

export class SlackError extends Error {
  constructor(
    readonly code: string,
    /** Seconds Slack asks to wait (HTTP 429 Retry-After). */
    readonly retryAfter: number | null = null,
  ) {
    super(code);
    this.name = 'SlackError';
  }
  get permanent() {
    return PERMANENT.has(this.code);
  }
}

export interface SlackConfig {
  SLACK_CLIENT_ID?: string | undefined;
  SLACK_CLIENT_SECRET?: string | undefined;
  SLACK_API_URL: string;
  SLACK_OAUTH_URL: string;
}

export const slackConfigured = (config: SlackConfig) =>
  Boolean(config.SLACK_CLIENT_ID && config.SLACK_CLIENT_SECRET);

export interface SlackOAuthAccess {
  access_token: string;
  token_type?: string;
  scope?: string;
  bot_user_id?: string;
  app_id?: string;
  team?: { id: string; name: string } | null;
}

/** Slack's Web API (https://api.slack.com/web): form or JSON in, `{ ok, error }` envelopes out. */
export function slackApi(config: SlackConfig, fetchImpl: typeof fetch = fetch) {
  const base = config.SLACK_API_URL.replace(/\/$/, '');
  async function call<T>(
    method: string,
    init: { token?: string; form?: Record<string, string>; json?: Record<string, unknown>; basic?: string },
  ): Promise<T> {
    const headers: Record<string, string> = {};
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    if (init.basic) headers.authorization = `Basic ${init.basic}`;
    let body: string | undefined;
    if (init.json) {
      headers['content-type'] = 'application/json; charset=utf-8';
      body = JSON.stringify(init.json);
    } else if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    let res: Response;
    try {
      res = await fetchImpl(`${base}/${method}`, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(15_000),
      });
    } catch (error) {
      throw new SlackError(`network_error: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (res.status === 429) {
      const retry = Number(res.headers.get('retry-after'));
      throw new SlackError('ratelimited', Number.isFinite(retry) && retry > 0 ? retry : 30);
    }
    const data = (await res.json().catch(() => null)) as ({ ok?: boolean; error?: string } & T) | null;
    if (!data) throw new SlackError(`http_${res.status}`);
    if (!data.ok) throw new SlackError(data.error ?? `http_${res.status}`);
    return data;
  }

  return {
    authorizeUrl(input: { redirectUri: string; state: string }) {
      const url = new URL(config.SLACK_OAUTH_URL);
      url.searchParams.set('client_id', config.SLACK_CLIENT_ID ?? '');
      url.searchParams.set('scope', SLACK_SCOPES);
      url.searchParams.set('redirect_uri', input.redirectUri);
      url.searchParams.set('state', input.state);
      return url.toString();
    },
    /** oauth.v2.access: the code for the bot token; the app's id and secret by HTTP Basic. */
    oauthAccess(code: string, redirectUri: string) {
      const basic = Buffer.from(`${config.SLACK_CLIENT_ID}:${config.SLACK_CLIENT_SECRET}`).toString('base64');
      return call<SlackOAuthAccess>('oauth.v2.access', {
        basic,
        form: { code, redirect_uri: redirectUri },
      });
    },
    /** Public and private channels the bot can see, not archived (all pages, at most 1,000). */
    async channels(token: string): Promise<SlackChannelWire[]> {
      const out: SlackChannelWire[] = [];
      let cursor = '';
      for (let page = 0; page < 5; page++) {
        const data = await call<{
          channels: Array<{ id: string; name: string; is_private?: boolean }>;
          response_metadata?: { next_cursor?: string };
        }>('conversations.list', {
          token,
          form: {
            types: 'public_channel,private_channel',
            exclude_archived: 'true',
            limit: '200',
            ...(cursor ? { cursor } : {}),
          },
        });
        for (const c of data.channels)
          out.push({ id: c.id, name: c.name, is_private: c.is_private === true });
        cursor = data.response_metadata?.next_cursor ?? '';
        if (!cursor) break;
      }
      return out.sort((a, b) => a.name.localeCompare(b.name));
    },
    postMessage(token: string, message: { channel: string; text: string; blocks?: unknown[] }) {
      return call<{ channel: string; ts: string }>('chat.postMessage', {
        token,
        json: { ...message, unfurl_links: false, unfurl_media: false },
      });
    },
    revoke(token: string) {
      return call<{ revoked: boolean }>('auth.revoke', { token });
    },
  };
}
export type SlackApi = ReturnType<typeof slackApi>;

// The OAuth state: sealed, binding the administrator, the space and the callback address, 10 minutes.

interface SlackState {
  kind: 'slack';
  userId: number;
  spaceId: number;
  redirectUri: string;
  expiresAt: number;
}

export function sealSlackState(
  sealer: Sealer,
  input: Omit<SlackState, 'kind' | 'expiresAt'>,
  now = Date.now(),
) {
  return sealer.seal(JSON.stringify({ kind: 'slack', ...input, expiresAt: now + STATE_TTL_MS }));
}

export function openSlackState(
  sealer: Sealer,
  state: string | undefined,
  now = Date.now(),
): SlackState | null {
  if (!state) return null;
  try {
    const value = JSON.parse(sealer.open(state)) as SlackState;
    return value.kind === 'slack' && value.expiresAt > now ? value : null;
  } catch {
    return null;
  }
}

// The space's installation.

export type SlackInstall = typeof notificationSlack.$inferSelect;

export async function slackInstall(db: Db, spaceId: number): Promise<SlackInstall | null> {
  const [row] = await db.select().from(notificationSlack).where(eq(notificationSlack.spaceId, spaceId));
  return row ?? null;
}

export function presentSlack(
  spaceId: number,
  configured: boolean,
  row: SlackInstall | null,
): SlackInstallWire {
  return {
    space_id: spaceId,
    configured,
    installed: row !== null,
    team_name: row?.teamName ?? null,
    channel_id: row?.channelId ?? null,
    channel_name: row?.channelName ?? null,
    error: row?.error ?? null,
    error_at: row?.errorAt ? Math.floor(row.errorAt.getTime() / 1000) : null,
  };
}

/** Stores the workspace and its bot token (sealed); a new install replaces the space's earlier one. */
export async function saveSlackInstall(
  db: Db,
  sealer: Sealer,
  input: { spaceId: number; userId: number; locale: string; access: SlackOAuthAccess },
  now = new Date(),
) {
  const team = input.access.team ?? { id: 'unknown', name: 'Slack' };
  const values = {
    teamId: team.id,
    teamName: team.name,
    botUserId: input.access.bot_user_id ?? null,
    tokenSealed: sealer.seal(input.access.access_token),
    scope: input.access.scope ?? '',
    locale: input.locale === 'en' ? 'en' : 'ru',
    installedBy: input.userId,
    installedAt: now,
    error: null,
    errorAt: null,
    broken: false,
  };
  const previous = await slackInstall(db, input.spaceId);
  // The same workspace again keeps the chosen channel; another workspace starts without one.
  const keepChannel = previous?.teamId === team.id;
  await db
    .insert(notificationSlack)
    .values({ spaceId: input.spaceId, ...values })
    .onConflictDoUpdate({
      target: notificationSlack.spaceId,
      set: {
        ...values,
        channelId: keepChannel ? previous.channelId : null,
        channelName: keepChannel ? previous.channelName : null,
      },
    });
  return (await slackInstall(db, input.spaceId))!;
}

export const slackToken = (sealer: Sealer, row: SlackInstall) => sealer.open(row.tokenSealed);

export async function chooseSlackChannel(db: Db, spaceId: number, channel: SlackChannelWire) {
  await db
    .update(notificationSlack)
    .set({ channelId: channel.id, channelName: channel.name, error: null, errorAt: null, broken: false })
    .where(eq(notificationSlack.spaceId, spaceId));
}

/** Slack answered with an error no retry mends: shown in settings/notifications, nothing more queued. */
export async function markSlackBroken(db: Db, spaceId: number, error: string, now = new Date()) {
  await db
    .update(notificationSlack)
    .set({ error, errorAt: now, broken: true })
    .where(eq(notificationSlack.spaceId, spaceId));
}

/** The spaces whose Slack posts to a channel now (notify() queues a message only for these). */
export async function slackReady(db: Db, spaceId: number): Promise<SlackInstall | null> {
  const row = await slackInstall(db, spaceId);
  return row?.channelId && !row.broken ? row : null;
}

/**
 * Slack's request signing (https://api.slack.com/authentication/verifying-requests-from-slack): the
 * `X-Slack-Signature` is `v0=` + HMAC-SHA256 of `v0:{timestamp}:{raw body}` with the signing secret;
 * a timestamp more than five minutes away is refused.
 */
export function verifySlackSignature(
  secret: string,
  headers: { timestamp: string | undefined; signature: string | undefined },
  rawBody: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  const ts = Number(headers.timestamp);
  if (!headers.signature || !Number.isInteger(ts)) return false;
  if (Math.abs(nowSeconds - ts) > SLACK_SIGNATURE_MAX_AGE_S) return false;
  const expected = `v0=${hmacSha256(secret, `v0:${ts}:${rawBody}`)}`;
  return safeEqual(expected, headers.signature);
}

export function signSlackRequest(
  secret: string,
  rawBody: string,
  nowSeconds = Math.floor(Date.now() / 1000),
) {
  return {
    'x-slack-request-timestamp': String(nowSeconds),
    'x-slack-signature': `v0=${hmacSha256(secret, `v0:${nowSeconds}:${rawBody}`)}`,
  };
}

/** Slack told us (events) the app is gone from a workspace: every space installed there shows it. */
export async function slackTeamGone(
  db: Db,
  teamId: string,
  reason: string,
  /** tokens_revoked: only installs whose bot is among these; app_uninstalled: all of the workspace. */
  botUserIds?: string[],
  now = new Date(),
) {
  if (botUserIds?.length === 0) return 0;
  const rows = await db
    .update(notificationSlack)
    .set({ error: reason, errorAt: now, broken: true })
    .where(
      and(
        eq(notificationSlack.teamId, teamId),
        botUserIds ? inArray(notificationSlack.botUserId, botUserIds) : undefined,
      ),
    )
    .returning({ spaceId: notificationSlack.spaceId });
  return rows.length;
}

/** The space's Slack is removed: the token revoked at Slack (best effort) and the row deleted. */
export async function removeSlack(db: Db, sealer: Sealer, api: SlackApi | null, spaceId: number) {
  const row = await slackInstall(db, spaceId);
  if (!row) return;
  if (api && !row.broken) await api.revoke(slackToken(sealer, row)).catch(() => undefined);
  await db.delete(notificationSlack).where(eq(notificationSlack.spaceId, spaceId));
}

import { type AccountSettings, parseAccountSettings } from '@otklik/shared';
import { eq, sql } from 'drizzle-orm';
import { objects } from '../../db/schema';
import type { InboundEvent } from '../inbound';
import type { ConnectorContext, PollResult } from '../types';
import {
  NotEnrolled,
  type RateWindow,
  secondsUntilReset,
  type TwitterAuth,
  type TwitterUser,
  userCall,
  userIdOf,
} from './client';

// Mentions and replies (GET /2/users/:id/mentions with since_id) and DMs (GET /2/dm_events) by polling,
// paced by the mentions window X reports (x-rate-limit-remaining / -reset): the reads left are spread
// over what is left of the window, never faster than TWITTER_POLL_INTERVAL_S. A plan without DMs (403
// client-not-enrolled) is asked again once a day. The account's tier is derived from these answers.

const PAGE = 100;
const MAX_PAGES = 5;
const DM_RETRY_MS = 24 * 3_600_000;
const NOTHING_ALLOWED_WAIT_S = 3_600;

export type ApiPlan = NonNullable<AccountSettings['api_plan']>;

interface Cursor {
  /** Newest mention id seen (since_id). */
  m?: string;
  /** Newest DM event id seen. */
  d?: string;
  /** DMs refused by the plan until this moment (ms). */
  dmOff?: number;
}

interface Tweet {
  id: string;
  text: string;
  author_id?: string;
  conversation_id?: string;
  created_at?: string;
  in_reply_to_user_id?: string;
  referenced_tweets?: Array<{ type: string; id: string }>;
}

interface DmEvent {
  id: string;
  event_type?: string;
  text?: string;
  sender_id?: string;
  dm_conversation_id?: string;
  created_at?: string;
}

interface Page<T> {
  data?: T[];
  includes?: { users?: TwitterUser[]; tweets?: Tweet[] };
  meta?: { newest_id?: string; next_token?: string; result_count?: number };
}

const newer = (a: string, b: string | undefined) => !b || BigInt(a) > BigInt(b);

function readCursor(cursor: string | null): Cursor {
  if (!cursor) return {};
  try {
    return JSON.parse(cursor) as Cursor;
  } catch {
    return {};
  }
}

function authorOf(id: string | undefined, users: Map<string, TwitterUser>) {
  const user = id ? users.get(id) : undefined;
  const externalId = id ?? 'unknown';
  return {
    externalId,
    name: user?.name || user?.username || externalId,
    screenName: user?.username,
    image: user?.profile_image_url,
    url: user?.username ? `https://x.com/${user.username}` : undefined,
  };
}

/** A post that mentions the account (or replies to it) → an item; replies to us are comments. */
export function mentionItem(me: string, tweet: Tweet, includes: Page<Tweet>['includes']): InboundEvent {
  const users = new Map((includes?.users ?? []).map((u) => [u.id, u]));
  const author = authorOf(tweet.author_id, users);
  const root = tweet.conversation_id ?? tweet.id;
  const rootTweet = includes?.tweets?.find((t) => t.id === root);
  return {
    type: 'item',
    kind: tweet.in_reply_to_user_id === me ? 'comment' : 'mention',
    externalId: tweet.id,
    post: { externalId: root, text: rootTweet?.text ?? '', url: `https://x.com/i/web/status/${root}` },
    author,
    isOwn: tweet.author_id === me,
    text: tweet.text,
    url: `https://x.com/${author.screenName ?? 'i/web'}/status/${tweet.id}`,
    createdAt: tweet.created_at ? new Date(tweet.created_at) : new Date(),
  };
}

function dmMessage(me: string, event: DmEvent, users: Map<string, TwitterUser>): InboundEvent {
  return {
    type: 'message',
    chatExternalId: event.dm_conversation_id ?? `dm:${event.sender_id}`,
    externalId: event.id,
    author: authorOf(event.sender_id, users),
    isOwn: event.sender_id === me,
    text: event.text ?? '',
    createdAt: event.created_at ? new Date(event.created_at) : new Date(),
  };
}

const MENTION_QUERY = {
  'tweet.fields': 'created_at,conversation_id,in_reply_to_user_id,referenced_tweets,author_id',
  expansions: 'author_id,referenced_tweets.id',
  'user.fields': 'username,name,profile_image_url',
};

/**
 * Mentions newer than `since` (pages up to MAX_PAGES), oldest first, and the mentions window. More than
 * MAX_PAGES × 100 new mentions between two rounds would cost more reads than a Basic window has: the
 * oldest beyond them are not fetched (README says so).
 */
export async function readMentions(auth: TwitterAuth, since: string | undefined, max = PAGE * MAX_PAGES) {
  const me = userIdOf(auth);
  const events: InboundEvent[] = [];
  let newest = since;
  let rate: RateWindow | null = null;
  let token: string | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const answer = await userCall<Page<Tweet>>(auth, 'GET', `/2/users/${me}/mentions`, {
      query: {
        ...MENTION_QUERY,
        max_results: String(Math.max(5, Math.min(PAGE, max))),
        ...(since ? { since_id: since } : {}),
        ...(token ? { pagination_token: token } : {}),
      },
    });
    rate = answer.rate;
    for (const tweet of answer.body.data ?? []) {
      events.push(mentionItem(me, tweet, answer.body.includes));
      if (newer(tweet.id, newest)) newest = tweet.id;
    }
    token = answer.body.meta?.next_token;
    // The first round (no since_id) reads one page: the import on connect brought the older ones.
    if (!token || !since || events.length >= max) break;
  }
  return { events: events.reverse().slice(-max), newest, rate };
}

/** DM events newer than `since`, oldest first. */
export async function readDms(auth: TwitterAuth, since: string | undefined) {
  const me = userIdOf(auth);
  const answer = await userCall<Page<DmEvent>>(auth, 'GET', '/2/dm_events', {
    query: {
      'dm_event.fields': 'id,text,event_type,created_at,sender_id,dm_conversation_id',
      event_types: 'MessageCreate',
      expansions: 'sender_id',
      'user.fields': 'username,name,profile_image_url',
      max_results: String(PAGE),
    },
  });
  const users = new Map((answer.body.includes?.users ?? []).map((u) => [u.id, u]));
  const fresh = (answer.body.data ?? []).filter((e) => newer(e.id, since));
  let newest = since;
  for (const e of fresh) if (newer(e.id, newest)) newest = e.id;
  return { events: fresh.reverse().map((e) => dmMessage(me, e, users)), newest };
}

/** The tier an answer shows (UNCONFIRMED mapping: mentions per 15 min — Free 1, Basic 10, Pro 300+). */
export function planOf(mentions: boolean, dms: boolean, rate: RateWindow | null): ApiPlan {
  const limit = rate?.limit ?? null;
  let tier: ApiPlan['tier'] = 'unknown';
  if (!mentions || (limit !== null && limit <= 1)) tier = 'free';
  else if (limit !== null && limit <= 15) tier = 'basic';
  else if (limit !== null) tier = 'pro';
  return { tier, mentions, dms, per_15min: limit };
}

/** Stores the plan on the account's settings when it changed (shown on the account). */
export async function rememberPlan(ctx: ConnectorContext, plan: ApiPlan) {
  const before = parseAccountSettings(ctx.object.settings).api_plan;
  if (before && JSON.stringify(before) === JSON.stringify(plan)) return;
  await ctx.db
    .update(objects)
    .set({ settings: sql`${objects.settings} || ${JSON.stringify({ api_plan: plan })}::jsonb` })
    .where(eq(objects.id, ctx.object.id));
}

/** Seconds before the next round: the reads left spread over the window, at least `interval`. */
export function pace(rate: RateWindow | null, interval: number, now: Date): number {
  if (!rate || rate.remaining === null || rate.reset === null) return interval;
  const left = secondsUntilReset(rate, now);
  if (rate.remaining <= 0) return Math.max(interval, left);
  return Math.max(interval, Math.ceil(left / rate.remaining));
}

export async function pollTwitter(ctx: ConnectorContext, auth: TwitterAuth, cursor: string | null) {
  const from = readCursor(cursor);
  const next: Cursor = { ...from };
  const events: InboundEvent[] = [];
  let mentions = true;
  let rate: RateWindow | null = null;
  try {
    const read = await readMentions(auth, from.m);
    events.push(...read.events);
    next.m = read.newest;
    rate = read.rate;
  } catch (error) {
    if (!(error instanceof NotEnrolled)) throw error;
    mentions = false;
  }
  const now = auth.now();
  let dms = from.dmOff === undefined || from.dmOff <= now.getTime();
  if (dms) {
    try {
      const read = await readDms(auth, from.d);
      events.push(...read.events);
      next.d = read.newest;
      delete next.dmOff;
    } catch (error) {
      if (!(error instanceof NotEnrolled)) throw error;
      dms = false;
      next.dmOff = now.getTime() + DM_RETRY_MS;
    }
  }
  // While DMs are known refused (not asked again before dmOff) the plan keeps saying so.
  await rememberPlan(ctx, planOf(mentions, dms, rate));
  const interval = ctx.config.TWITTER_POLL_INTERVAL_S;
  const waitSeconds = mentions ? pace(rate, interval, now) : dms ? interval : NOTHING_ALLOWED_WAIT_S;
  return { events, cursor: JSON.stringify(next), waitSeconds } satisfies PollResult;
}

/** The newest mentions and DMs, for the import on connect. */
export async function recentTwitter(auth: TwitterAuth, limit: number): Promise<InboundEvent[]> {
  const events: InboundEvent[] = [];
  try {
    events.push(...(await readMentions(auth, undefined, limit)).events);
  } catch (error) {
    if (!(error instanceof NotEnrolled)) throw error;
  }
  try {
    events.push(...(await readDms(auth, undefined)).events);
  } catch (error) {
    if (!(error instanceof NotEnrolled)) throw error;
  }
  return events.slice(-limit);
}

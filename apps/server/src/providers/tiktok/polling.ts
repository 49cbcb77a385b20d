import type { InboundEvent } from '../inbound';
import type { PollResult } from '../types';
import { listComments, listVideos, type TiktokAuth, type TiktokComment, type TiktokVideo } from './client';

// TikTok has no confirmed push for organic comments (the COMMENT webhook is UNCONFIRMED, PROVIDERS
// §7g), so the account's newest videos are read and their newest comments listed. The per-account
// limit (40 requests a minute per endpoint, one implementer's notes) bounds a round: at most
// VIDEOS_PER_ROUND videos, one page each, and an idle round waits before the next.

const VIDEOS_PER_ROUND = 10;
/** comment/list `max_count` is at most 30 (PROVIDERS §7g). */
const COMMENTS_PER_PAGE = 30;
const IDLE_WAIT_S = 30;

const str = (value: string | number | undefined) => (value === undefined ? undefined : String(value));

/** `create_time` of the newest comment seen and the ids seen at that second. */
interface Cursor {
  at: number;
  ids: string[];
}

function readCursor(cursor: string | null): Cursor {
  const [at, ids] = (cursor ?? '').split('|');
  const seconds = Number(at);
  // The first round takes what is listed: what the import on connect brought is found and skipped by
  // ingestion, and a comment written between the import and this round is not lost.
  if (!cursor || !Number.isFinite(seconds)) return { at: 0, ids: [] };
  return { at: seconds, ids: ids ? ids.split(',') : [] };
}

/** A comment (or a reply under one) → an item under its video. */
export function toItem(comment: TiktokComment, video: TiktokVideo | undefined): InboundEvent {
  const userId = str(comment.user_id) ?? 'unknown';
  const videoId = String(comment.video_id);
  return {
    type: 'item',
    kind: 'comment',
    externalId: String(comment.comment_id),
    post: {
      externalId: videoId,
      text: video?.caption ?? '',
      url: video?.share_url,
      postedAt: video?.create_time ? new Date(video.create_time * 1000) : undefined,
    },
    parentExternalId: str(comment.parent_comment_id),
    author: {
      externalId: userId,
      name: comment.display_name || comment.username || userId,
      screenName: comment.username,
      image: comment.profile_image,
      url: comment.username ? `https://www.tiktok.com/@${comment.username}` : undefined,
    },
    isOwn: comment.owner === true,
    text: comment.text ?? '',
    createdAt: new Date(comment.create_time * 1000),
  };
}

function sleep(ms: number, signal: AbortSignal) {
  return new Promise<void>((resolve) => {
    if (ms <= 0 || signal.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

export async function pollComments(
  auth: TiktokAuth,
  cursor: string | null,
  opts: { timeoutSeconds: number; signal: AbortSignal },
): Promise<PollResult> {
  const from = readCursor(cursor);
  const { videos = [] } = await listVideos(auth, VIDEOS_PER_ROUND);
  const events: InboundEvent[] = [];
  const next: Cursor = { ...from, ids: [...from.ids] };
  for (const video of videos) {
    const { comments = [] } = await listComments(auth, String(video.item_id), 0, COMMENTS_PER_PAGE);
    const fresh = comments
      .filter((c) => {
        const id = String(c.comment_id);
        return c.create_time > from.at || (c.create_time === from.at && !from.ids.includes(id));
      })
      .sort((a, b) => a.create_time - b.create_time);
    for (const c of fresh) {
      // Our own replies are stored when we send them; one written in TikTok's app comes in as own.
      events.push(toItem(c, video));
      const id = String(c.comment_id);
      if (c.create_time > next.at) Object.assign(next, { at: c.create_time, ids: [id] });
      else if (c.create_time === next.at && !next.ids.includes(id)) next.ids.push(id);
    }
  }
  // Parents before replies, so a reply finds its comment in the same round.
  events.sort(
    (a, b) =>
      Number(a.type === 'item' && a.parentExternalId !== undefined) -
      Number(b.type === 'item' && b.parentExternalId !== undefined),
  );
  if (events.length === 0) await sleep(Math.min(opts.timeoutSeconds, IDLE_WAIT_S) * 1000, opts.signal);
  return { events, cursor: `${next.at}|${next.ids.join(',')}` };
}

/** The newest comments of the newest videos, for the import on connect (docs/product/limits.md: up to `limit`). */
export async function recentComments(auth: TiktokAuth, limit: number): Promise<InboundEvent[]> {
  const { videos = [] } = await listVideos(auth, VIDEOS_PER_ROUND);
  const events: InboundEvent[] = [];
  for (const video of videos) {
    if (events.length >= limit) break;
    const { comments = [] } = await listComments(
      auth,
      String(video.item_id),
      0,
      Math.min(COMMENTS_PER_PAGE, limit - events.length),
    );
    for (const c of comments) events.push(toItem(c, video));
  }
  return events.slice(0, limit);
}

import type { InboundEvent } from '../inbound';
import type { YtComment, YtThread } from './client';

// YouTube comments (PROVIDERS.md §5) → inbound items: a thread's top-level comment is a comment on
// the video (the post); its replies are comments under it (parentExternalId). Comments the channel
// wrote itself (in YouTube Studio, or our own replies coming back) are marked own. A comment YouTube
// holds back (moderationStatus heldForReview or likelySpam, shown to the owner only) is stored hidden:
// publishing it (unhide → setModerationStatus published) makes it an ordinary comment.

/** The statuses YouTube keeps from public view until the channel publishes or rejects the comment. */
export const HELD_STATUSES = ['heldForReview', 'likelySpam'] as const;
export type HeldStatus = (typeof HELD_STATUSES)[number];

export const isHeld = (c: YtComment) =>
  (HELD_STATUSES as readonly string[]).includes(c.snippet.moderationStatus ?? '');

export const videoUrl = (videoId: string) => `https://www.youtube.com/watch?v=${encodeURIComponent(videoId)}`;

export function commentEvent(c: YtComment, opts: { channelId: string; videoId?: string }): InboundEvent {
  const s = c.snippet;
  const videoId = s.videoId ?? opts.videoId;
  const author = s.authorChannelId?.value ?? `name:${s.authorDisplayName ?? 'unknown'}`;
  return {
    type: 'item',
    kind: 'comment',
    externalId: c.id,
    ...(videoId ? { post: { externalId: videoId, text: '', url: videoUrl(videoId) } } : {}),
    ...(s.parentId ? { parentExternalId: s.parentId } : {}),
    author: {
      externalId: author,
      name: s.authorDisplayName ?? '',
      ...(s.authorDisplayName?.startsWith('@') ? { screenName: s.authorDisplayName.slice(1) } : {}),
      ...(s.authorProfileImageUrl ? { image: s.authorProfileImageUrl } : {}),
      ...(s.authorChannelUrl ? { url: s.authorChannelUrl } : {}),
    },
    isOwn: author === opts.channelId,
    ...(isHeld(c) ? { hidden: true } : {}),
    text: s.textOriginal ?? s.textDisplay ?? '',
    ...(videoId ? { url: `${videoUrl(videoId)}&lc=${encodeURIComponent(c.id)}` } : {}),
    createdAt: s.publishedAt,
  };
}

/** When a thread last changed: its top-level comment or its newest reply shown. */
export function latestActivity(thread: YtThread): string {
  const times = [
    thread.snippet.topLevelComment.snippet.publishedAt,
    ...(thread.replies?.comments ?? []).map((r) => r.snippet.publishedAt),
  ];
  // biome-ignore lint/complexity/useMathMinMax: ISO timestamps, compared as strings (Math.max gives NaN)
  return times.reduce((a, b) => (b > a ? b : a));
}

// Wire shapes of the inbox (apps/server/src/modules/inbox/presenter.ts, authors/presenter.ts,
// objects/presenter.ts, providers/sandbox/page.ts). The server's presenters are the source of truth.

import type { EmotionCategory, Sentiment } from '@otklik/shared';

export type InboxStatus = 'new' | 'inprogress' | 'open' | 'closed' | 'deleted' | 'delayed' | 'waiting';
export type SettableStatus = Exclude<InboxStatus, 'deleted'>;
export type CloseReason = 'reply' | 'noreply' | 'autorule';
export type ItemKind = 'comment' | 'review' | 'mention';
/** 'approval': held for a reviewer (approval mode, docs/product/qa.md). */
export type DeliveryState =
  | 'received'
  | 'approval'
  | 'queued'
  | 'sending'
  | 'sent'
  | 'delivered'
  | 'read'
  | 'failed';

export interface Attachment {
  type: 'image' | 'video' | 'audio' | 'voice' | 'document' | 'sticker' | 'link';
  url: string;
  name?: string;
  mime?: string;
  size?: number;
  width?: number;
  height?: number;
}

export interface Reaction {
  value: string;
  count: number;
  /** Set by the account (us). */
  own?: boolean;
}

export interface InboxAuthor {
  id: number;
  provider: string;
  external_id: string;
  name: string;
  screen_name: string | null;
  image: string | null;
  url: string | null;
  /** Unix seconds; null when not blocked or blocked forever. */
  blocked_until: number | null;
  blocked_forever: boolean;
  is_blocked: boolean;
  labels: number[];
  space_id?: number;
}

export interface InboxPost {
  id: number;
  external_id: string;
  text: string;
  url: string | null;
  attachments: Attachment[];
  posted_at: number | null;
}

export interface InboxItem {
  id: number;
  space_id: number;
  object_id: number;
  provider?: string;
  kind: ItemKind;
  post_id: number | null;
  parent_id: number | null;
  external_id: string | null;
  author: InboxAuthor | null;
  is_own: boolean;
  /** Who replied (own replies). */
  user_id: number | null;
  text: string;
  /** docs/product/limits.md: the first 100 characters. */
  excerpt: string;
  rating: number | null;
  /** Emotions (issue 21): the classifier's reading of a received text; null for ours or when off. */
  sentiment: Sentiment | null;
  emotion: EmotionCategory | null;
  attachments: Attachment[];
  reactions: Reaction[];
  url: string | null;
  status: InboxStatus;
  close_reason: CloseReason | null;
  delayed_until: number | null;
  /** Back from delayed and not opened since (unix seconds). */
  returned_at?: number | null;
  assigned_user_id: number | null;
  is_hidden: boolean;
  is_liked: boolean;
  is_deleted: boolean;
  delivery: DeliveryState;
  delivery_error: string | null;
  tags: number[];
  created_at: number;
  updated_at: number | null;
  edited_at: number | null;
  first_reply_at: number | null;
  /** Only in a list searched by text: the passage around the words found (MATCH_START/MATCH_END). */
  match?: SearchMatch;
}

/** Where a text search found a list row: the passage, and for a chat the message it is from. */
export interface SearchMatch {
  text: string;
  message_id?: number;
  is_own?: boolean;
}

export interface InboxChat {
  id: number;
  space_id: number;
  object_id: number;
  provider?: string;
  external_id: string | null;
  author: InboxAuthor | null;
  status: InboxStatus;
  close_reason: CloseReason | null;
  delayed_until: number | null;
  /** Back from delayed and not opened since (unix seconds). */
  returned_at?: number | null;
  assigned_user_id: number | null;
  last_message_at: number | null;
  last_message: string;
  last_message_is_own: boolean;
  /** Emotions (issue 21): the reading of the customer's latest message; null when none or off. */
  sentiment?: Sentiment | null;
  emotion?: EmotionCategory | null;
  unread_count: number;
  tags: number[];
  created_at: number;
  updated_at: number | null;
  /** Only in a list searched by text: the newest message that matched, as a passage. */
  match?: SearchMatch | null;
}

export interface InboxMessage {
  id: number;
  chat_id: number;
  external_id: string | null;
  is_own: boolean;
  user_id: number | null;
  text: string;
  sentiment?: Sentiment | null;
  emotion?: EmotionCategory | null;
  attachments: Attachment[];
  reactions: Reaction[];
  delivery: DeliveryState;
  delivery_error: string | null;
  is_deleted: boolean;
  reply_to_item_id: number | null;
  created_at: number;
  edited_at: number | null;
}

export interface Page<T> {
  items: T[];
  next: string | null;
}

export interface ItemDetails {
  item: InboxItem;
  post: InboxPost | null;
  parent: InboxItem | null;
  /** Replies under the item, ours included, oldest first. */
  thread: InboxItem[];
  author: InboxAuthor | null;
}

export interface ChatDetails {
  chat: InboxChat;
  author: InboxAuthor | null;
}

/** Settings → accounts (GET /v1/objects/:id, POST /v1/objects). */
export interface AccountSettingsValue {
  exclude: { words: string[]; authors: string[] };
  exclude_messages: { words: string[]; authors: string[] };
  chats: boolean;
  stickers: boolean;
  reactions: boolean;
  /** What the network's API plan gives the account (X: its tier), learned by the server; read-only. */
  api_plan?: ApiPlan;
}

export interface ApiPlan {
  tier: 'free' | 'basic' | 'pro' | 'unknown';
  mentions: boolean;
  dms: boolean;
  per_15min: number | null;
}

export interface Account {
  id: number;
  space_id: number;
  company_id: number | null;
  provider: string;
  name: string;
  screen_name: string | null;
  image: string | null;
  url: string | null;
  domain: string | null;
  error: string | null;
  error_at: number | null;
  is_active: boolean;
  connect: string | null;
  settings: AccountSettingsValue;
  created_at: number | null;
  /** A network's daily API quota (YouTube): units this account spent on the quota's day; null elsewhere. */
  api_quota?: { day: string; used: number; limit: number | null } | null;
}

/** POST /v1/objects: the account plus what it needs from outside, shown once. */
export interface ConnectedAccount extends Account {
  sandbox_url?: string;
  ingest_token?: string;
  imported: number;
}

export interface TagRecord {
  id: number;
  name: string;
  color: string | null;
  space_id: number;
  company_id: number | null;
  parent_id: number | null;
  group_id: number | null;
}

export interface TagGroupRecord {
  id: number;
  name: string;
  space_id: number;
}

export interface LabelRecord {
  id: number;
  name: string;
  color: string | null;
  space_id: number;
}

export interface AuthorListEntry extends InboxAuthor {
  space_id: number;
  items_count: number;
  chats_count: number;
}

export interface AuthorStats {
  items_count: number;
  chats_count: number;
  first_seen: number | null;
  last_seen: number | null;
}

export interface AuthorPage<T> {
  items: T[];
  next_before: number | null;
}

// ---------------------------------------------------------------- the sandbox customer page

export interface SandboxEntry {
  id: number;
  kind: 'post' | 'comment' | 'review' | 'message' | string;
  author_name: string;
  author_id: string;
  from_account: boolean;
  text: string;
  rating: number | null;
  reaction: string | null;
  liked: boolean;
  hidden: boolean;
  deleted: boolean;
  created_at: number | null;
  edited_at: number | null;
  replies: SandboxEntry[];
}

export interface SandboxPage {
  account: { id: number; name: string; provider: string };
  reactions: string[];
  posts: Array<Omit<SandboxEntry, 'replies'> & { comments: SandboxEntry[] }>;
  reviews: SandboxEntry[];
  blocked: Array<{ author_id: string; until: number | null }>;
  conversations: Array<{ peer: string; author_name: string; messages: SandboxEntry[] }>;
}

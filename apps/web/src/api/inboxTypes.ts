// Wire shapes of the inbox as the web reads them. Items, chats, messages, authors and posts come from
// packages/shared (below); accounts, tags and the sandbox page are still declared here, after
// apps/server/src/modules/objects/presenter.ts, tags/presenter.ts and providers/sandbox/page.ts.

import type {
  AuthorListEntryWire,
  AuthorStatsWire,
  AuthorWire,
  BeforePageWire,
  ChatDetailsWire,
  ChatWire,
  ItemDetailsWire,
  ItemWire,
  LabelWire,
  MessageWire,
  PageWire,
  PostWire,
  TagGroupWire,
  TagWire,
} from '@otklik/shared';

// The inbox's rows and answers are the shared wire shapes (packages/shared inbox-wire.ts), which the
// server's presenters and routes are typed against: a change of shape there is a type error here.
export type {
  Attachment,
  CloseReason,
  DeliveryState,
  InboxStatus,
  ItemKind,
  Reaction,
  SearchMatch,
  SettableStatus,
} from '@otklik/shared';
export type InboxAuthor = AuthorWire;
export type InboxPost = PostWire;
export type InboxItem = ItemWire;
export type InboxChat = ChatWire;
export type InboxMessage = MessageWire;
export type Page<T> = PageWire<T>;
export type ItemDetails = ItemDetailsWire;
export type ChatDetails = ChatDetailsWire;

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

export type TagRecord = TagWire;
export type TagGroupRecord = TagGroupWire;
export type LabelRecord = LabelWire;

export type AuthorListEntry = AuthorListEntryWire;
export type AuthorStats = AuthorStatsWire;
export type AuthorPage<T> = BeforePageWire<T>;

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

// Wire shapes of the inbox as the web reads them. Items, chats, messages, authors and posts come from
// packages/shared (below), and so do accounts (accounts-wire.ts) and the sandbox page.

import type {
  AccountRevealWire,
  AccountSettings,
  AccountWire,
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
  SandboxEntryWire,
  SandboxPageWire,
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

/** Settings → accounts (GET /v1/objects/:id, POST /v1/objects): the shared wire shapes (accounts-wire.ts). */
export type AccountSettingsValue = AccountSettings;
export type ApiPlan = NonNullable<AccountSettings['api_plan']>;
export type Account = AccountWire;

/**
 * An account just connected (POST /v1/objects, the OAuth popup, Pulse's check): the account, what it
 * needs from outside (shown once) and the items imported on connect.
 */
export type ConnectedAccount = AccountWire & AccountRevealWire & { imported: number };

export type TagRecord = TagWire;
export type TagGroupRecord = TagGroupWire;
export type LabelRecord = LabelWire;

export type AuthorListEntry = AuthorListEntryWire;
export type AuthorStats = AuthorStatsWire;
export type AuthorPage<T> = BeforePageWire<T>;

// ---------------------------------------------------------------- the sandbox customer page

export type SandboxEntry = SandboxEntryWire;
export type SandboxPage = SandboxPageWire;

import type { PresentedHdeTicket } from './hde';
import type { AuthorWire, ChatWire, ItemWire, MessageWire } from './inbox-wire';
import type { ExportWire } from './stats-exports';

// The socket's wire contract (issue 12, point 4): every event the server publishes on its bus, with the
// payload it carries and the audience that may receive it. The server publishes through a function typed
// from this catalogue (apps/server/src/realtime/bus.ts), delivery is decided by the declared audience
// (apps/server/src/realtime/access.ts), and the web subscribes with handlers typed from it
// (apps/web/src/realtime/hooks.ts, apps/web/src/api/pushes.ts). A socket message is
// `{ type, space_id?, ...payload }`.

/**
 * Who may receive an event (every audience also needs the user to be a member of the event's space):
 * - `space`: every member of the space (settings lists, colleagues' statuses, locks). `userIds` may narrow
 *   it to some members (one user's own working hours).
 * - `items`: members whose `items.view` scope covers every account the event names (comments, reviews);
 *   an event naming no account goes only to members who see every account of the space.
 * - `messages`: the same with the `messages.view` scope (chats and their messages).
 * - `authors`: members who see the named accounts through either scope.
 * - `accounts`: members who manage the space's accounts, or see the named accounts through either scope.
 * - `users`: only the users the event names (`userIds`), in the space when it names one.
 * - `nodes`: between server nodes only (wake a worker, close sessions, a lock taken): never a socket.
 */
export type SocketAudience = 'space' | 'items' | 'messages' | 'authors' | 'accounts' | 'users' | 'nodes';

/** Rows published on the bus are the read API's own shapes (inbox-wire.ts); outgoing webhooks get them whole. */
export type PushedItem = ItemWire;
export type PushedChat = ChatWire;
export type PushedMessage = MessageWire;
export type PushedAuthor = AuthorWire;

/**
 * Slim pushes (issue 22): what a browser's socket leaves out of a comment or a message. A list row does not
 * show these fields (it shows `excerpt`, not `text`); a screen that does — an open comment or chat — reads
 * its record again when a push concerns it. A big space's push to every operator is then about a third
 * smaller for a short comment, and does not grow with a long text or its attachments.
 */
export const SLIM_ITEM_OMITS = [
  'text',
  'attachments',
  'reactions',
  'url',
  'external_id',
  'user_id',
  'updated_at',
  'edited_at',
  'first_reply_at',
] as const;
export const SLIM_MESSAGE_OMITS = ['text', 'attachments', 'reactions', 'external_id'] as const;
/** A comment as a browser's socket carries it. */
export type SlimItem = Omit<ItemWire, (typeof SLIM_ITEM_OMITS)[number]>;
/** A message as a browser's socket carries it. */
export type SlimMessage = Omit<MessageWire, (typeof SLIM_MESSAGE_OMITS)[number]>;

function without<T extends object>(row: T, omits: readonly string[]): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) if (!omits.includes(key)) out[key] = value;
  return out as T;
}

function slimRows(rows: unknown, omits: readonly string[]): unknown {
  return Array.isArray(rows)
    ? rows.map((row) => (row && typeof row === 'object' ? without(row, omits) : row))
    : rows;
}

/** The payload of a bus event as a browser's socket carries it (the bus and outgoing webhooks keep it whole). */
export function slimPush(type: string, payload: Record<string, unknown>): Record<string, unknown> {
  switch (type) {
    case 'items.created':
    case 'items.updated':
      return { ...payload, items: slimRows(payload.items, SLIM_ITEM_OMITS) };
    case 'messages.created':
    case 'messages.updated':
      return { ...payload, messages: slimRows(payload.messages, SLIM_MESSAGE_OMITS) };
    default:
      return payload;
  }
}
/** An account (connected object) row as the accounts API presents it. */
export type PushedAccount = { id: number } & Record<string, unknown>;
/** An in-app notification (`notify`): its kind and the fields the web shows (realtime/notify.ts). */
export type PushedNotification = { type: string } & Record<string, unknown>;

type Ids = { ids: number[] };
/** No fields (an excess field is a type error; a message's `type` stays its own). */
type Empty = { _?: never };
type Lock = { key: string };

/** Every event's payload, by name. */
export interface SocketEventPayloads {
  // Comments and reviews (items.view).
  'items.created': { object_id: number; items: PushedItem[] };
  'items.updated': { object_id?: number; items: PushedItem[] };
  'items.removed': { object_id: number; ids: number[] };
  'items.notes': { object_id: number; item_id: number; note_id: number };
  'items.hde_ticket': { object_id: number; item_id: number; ticket: PresentedHdeTicket };
  // Chats and personal messages (messages.view).
  'messages.created': { object_id: number; chats: PushedChat[]; messages: PushedMessage[] };
  'messages.updated': { object_id: number; messages: PushedMessage[] };
  'messages.removed': { object_id: number; chat_id: number; ids: number[] };
  'chats.updated': { object_id: number; chats: PushedChat[] };
  'chats.read': { chat?: PushedChat };
  'chats.notes': { object_id: number; chat_id: number; note_id: number };
  'chats.hde_ticket': { object_id: number; chat_id: number; ticket: PresentedHdeTicket };
  // Customers: their rows (through the account they wrote to), their labels (space).
  'authors.updated': { object_id?: number; authors: PushedAuthor[] };
  'authors.changed': Ids;
  // Accounts and their failures.
  'objects.created': { objects: PushedAccount[] };
  'objects.updated': { objects: PushedAccount[] } | Ids;
  'objects.deleted': Ids;
  'objects.failed': {
    object_id: number;
    action: string;
    item_id: number | null;
    chat_id: number | null;
    author_id: number | null;
  };
  'objects.failure_dismissed': { object_id: number; id: number };
  // Settings lists and the organisation (space).
  'labels.changed': Ids;
  'tags.changed': Ids;
  'tag_groups.changed': Ids;
  'companies.changed': { id: number };
  'departments.changed': { id: number };
  'usergroups.changed': Ids;
  'users.changed': Empty;
  'user_statuses.changed': Empty;
  'workinghours.changed': { kind?: 'templates' | 'holidays' | 'business' };
  'issues.changed': { id: number };
  'qa.changed': { id: number };
  'qa.approvals': { members?: true; object_id?: number };
  monitoring: { query_ids: number[] };
  youscan: { topic_ids: number[]; imported?: number };
  // People's statuses: the user's own (`status`) and colleagues' (`user_status`), the same payload.
  status: UserStatusPayload;
  user_status: UserStatusPayload;
  // Locks on replies (space).
  locked: Lock & { user: { id: number; name: string } };
  unlocked: Lock;
  // To the users named only.
  'memberships.changed': Empty;
  'mentions.changed': Empty;
  'notifications.changed': Empty;
  notify: { notification: PushedNotification };
  'stats.export': { export: ExportWire };
  // Between nodes only.
  'outbox.queued': Empty;
  'webhooks.queued': Empty;
  'rules.queued': Empty;
  'sessions.ended': { all: true } | { session_ids: number[] };
  'lock.taken': Lock & { connection_id: string; by: { id: number; name: string } };
}

export type UserStatusPayload = {
  status: number;
  user_id: number;
  source: string;
  changed_at: number;
};

/** Every event's audience, by name (the compiler checks it names exactly the events above). */
export const SOCKET_EVENTS = {
  'items.created': 'items',
  'items.updated': 'items',
  'items.removed': 'items',
  'items.notes': 'items',
  'items.hde_ticket': 'items',
  'messages.created': 'messages',
  'messages.updated': 'messages',
  'messages.removed': 'messages',
  'chats.updated': 'messages',
  'chats.read': 'messages',
  'chats.notes': 'messages',
  'chats.hde_ticket': 'messages',
  'authors.updated': 'authors',
  'authors.changed': 'space',
  'objects.created': 'accounts',
  'objects.updated': 'accounts',
  'objects.deleted': 'accounts',
  'objects.failed': 'accounts',
  'objects.failure_dismissed': 'accounts',
  'labels.changed': 'space',
  'tags.changed': 'space',
  'tag_groups.changed': 'space',
  'companies.changed': 'space',
  'departments.changed': 'space',
  'usergroups.changed': 'space',
  'users.changed': 'space',
  'user_statuses.changed': 'space',
  'workinghours.changed': 'space',
  'issues.changed': 'space',
  'qa.changed': 'space',
  'qa.approvals': 'space',
  monitoring: 'space',
  youscan: 'space',
  status: 'users',
  user_status: 'space',
  locked: 'space',
  unlocked: 'space',
  'memberships.changed': 'users',
  'mentions.changed': 'users',
  'notifications.changed': 'users',
  notify: 'users',
  'stats.export': 'users',
  'outbox.queued': 'nodes',
  'webhooks.queued': 'nodes',
  'rules.queued': 'nodes',
  'sessions.ended': 'nodes',
  'lock.taken': 'nodes',
} as const satisfies { [K in keyof SocketEventPayloads]: SocketAudience };

export type SocketEventName = keyof SocketEventPayloads;
export type SocketEventPayload<K extends SocketEventName> = SocketEventPayloads[K];
export type SocketEventAudience<K extends SocketEventName> = (typeof SOCKET_EVENTS)[K];

/** Events a browser may receive (every audience but `nodes`). */
export type BrowserEventName = {
  [K in SocketEventName]: SocketEventAudience<K> extends 'nodes' ? never : K;
}[SocketEventName];

/** The declared audience of an event name; undefined for a name outside the catalogue. */
export function socketAudience(type: string): SocketAudience | undefined {
  return Object.hasOwn(SOCKET_EVENTS, type) ? SOCKET_EVENTS[type as SocketEventName] : undefined;
}

/**
 * Replies the hub sends to one socket (not bus events): the handshake, a lock's state, errors. Typed here
 * so the web's handlers for them are typed too.
 */
export interface SocketReplyPayloads {
  hello: { connection_id: string };
  pong: Empty;
  lock: Lock & { acquired: boolean; holder: { id: number; name: string } };
  lock_state: Lock & { holder: { id: number; name: string } | null };
  lock_lost: Lock & { reason: 'taken' | 'idle'; by?: { id: number; name: string }; message: string };
  unlock: Lock;
  error: { request?: string; code: string; error: string };
}

/** The events slimPush changes, as a browser receives them. */
interface SlimPayloads {
  'items.created': { object_id: number; items: SlimItem[] };
  'items.updated': { object_id?: number; items: SlimItem[] };
  'messages.created': { object_id: number; chats: PushedChat[]; messages: SlimMessage[] };
  'messages.updated': { object_id: number; messages: SlimMessage[] };
}

type Incoming = Omit<SocketEventPayloads, keyof SlimPayloads> & SlimPayloads & SocketReplyPayloads;
/** Every message type a browser's socket may receive. */
export type SocketMessageType = BrowserEventName | keyof SocketReplyPayloads;

/** A received socket message of this type: `{ type, space_id?, ...payload }`. */
export type SocketMessageOf<K extends SocketMessageType> = { type: K; space_id?: number } & Incoming[K];

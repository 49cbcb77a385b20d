import { randomBytes } from 'node:crypto';
import type { Surface } from '../../src/providers/vk/ids';

// TEST-ONLY. The VK emulator's network-side state: communities, people, tokens, conversations,
// comments, callback servers, long-poll queues. Error texts are VK's own (PROVIDERS §2 error table).

export class VkFault extends Error {
  constructor(
    readonly code: number,
    readonly text: string,
  ) {
    super(text);
  }
}

export const FAULT_TEXT: Record<number, string> = {
  5: 'User authorization failed: invalid access_token (4).',
  6: 'Too many requests per second',
  7: 'Permission to perform this action is denied',
  8: 'Invalid request: v (version) is required',
  9: 'Flood control',
  10: 'Internal server error',
  15: 'Access denied: no access to call this method',
  27: 'Group authorization failed: method is unavailable with group auth.',
  29: 'Rate limit reached',
  100: 'One of the parameters specified was missing or invalid',
  104: 'Not found',
  909: "Can't edit this message, because it's too old",
  911: 'Keyboard format is invalid',
  914: 'Message is too long',
  1009: 'Invalid reaction id',
};

export const fault = (code: number, detail?: string) =>
  new VkFault(code, detail ? `${FAULT_TEXT[code] ?? 'Error'}: ${detail}` : (FAULT_TEXT[code] ?? 'Error'));

export interface EmulatedUser {
  id: number;
  first_name: string;
  last_name: string;
  screen_name?: string;
  photo_100?: string;
}

/** VK bot keyboard (dev.vk.com "Клавиатуры для ботов"): rows of buttons; `inline` ones sit under a message. */
export interface VkKeyboard {
  one_time?: boolean;
  inline?: boolean;
  buttons: Array<Array<{ action: { type: string; label?: string; payload?: string }; color?: string }>>;
}

export interface StoredMessage {
  id: number;
  conversation_message_id: number;
  peer_id: number;
  from_id: number;
  out: 0 | 1;
  text: string;
  date: number;
  update_time?: number;
  random_id: number;
  attachments: unknown[];
  /** messages.send `keyboard` (parsed JSON) of a message the community sent. */
  keyboard?: VkKeyboard;
  /** The button `payload` (a JSON string) of a customer's tap on a text button. */
  payload?: string;
  /** reacting id → reaction id */
  reactions: Map<number, number>;
}

export interface StoredComment {
  surface: Surface;
  owner_id: number;
  id: number;
  target: number;
  from_id: number;
  text: string;
  date: number;
  reply_to_comment?: number;
  parents_stack: number[];
  deleted: boolean;
  likes: Set<number>;
  /** Complaints (wall/photos/video.reportComment): who and the reason code. */
  reports?: Array<{ userId: number; reason: number }>;
}

export interface CallbackServer {
  id: number;
  url: string;
  title: string;
  secret_key: string;
  status: 'unconfigured' | 'wait' | 'ok' | 'failed';
  api_version: string;
  events: Set<string>;
}

export interface LongPollState {
  enabled: boolean;
  api_version: string;
  events: Set<string>;
  key: string;
  /** The ts the next event gets. */
  ts: number;
  history: Array<{ ts: number; update: Record<string, unknown> }>;
  /** Set by loseHistory(): the next a_check answers failed 3. */
  lost: boolean;
  waiters: Set<() => void>;
}

export interface EmulatedGroup {
  id: number;
  name: string;
  screen_name: string;
  photo_200: string;
  token: string;
  admins: Set<number>;
  confirmationCode: string;
  servers: CallbackServer[];
  serverSeq: number;
  longPoll: LongPollState;
  bans: Map<number, { end_date: number; comment?: string }>;
  conversations: Map<number, StoredMessage[]>;
  messageSeq: number;
  randomIds: Map<string, StoredMessage>;
  posts: Map<string, { id: number; text: string; date: number }>;
  comments: Map<string, StoredComment>;
  commentSeq: number;
  guids: Map<string, StoredComment>;
}

export type Caller = { kind: 'group'; group: EmulatedGroup } | { kind: 'user'; userId: number };

export const newKey = () => randomBytes(12).toString('hex');
export const commentKey = (surface: Surface, owner: number, id: number) => `${surface}:${owner}_${id}`;
export const postKey = (surface: Surface, owner: number, id: number) => `${surface}:${owner}_${id}`;

export class EmulatorState {
  readonly groups = new Map<number, EmulatedGroup>();
  readonly users = new Map<number, EmulatedUser>();
  readonly tokens = new Map<string, Caller>();
  readonly revoked = new Set<string>();
  /** OAuth codes → the community they were issued for. */
  readonly codes = new Map<string, { groupId: number; redirectUri: string }>();

  constructor(readonly now: () => number) {}

  unix(): number {
    return Math.floor(this.now() / 1000);
  }

  addGroup(opts: { id: number; name: string; screenName?: string }): EmulatedGroup {
    const group: EmulatedGroup = {
      id: opts.id,
      name: opts.name,
      screen_name: opts.screenName ?? `club${opts.id}`,
      photo_200: `https://sun.vk.example/c${opts.id}.jpg`,
      token: `vk1.a.group${opts.id}.${newKey()}`,
      admins: new Set(),
      confirmationCode: newKey().slice(0, 8),
      servers: [],
      serverSeq: 0,
      longPoll: {
        enabled: false,
        api_version: '5.199',
        events: new Set(),
        key: newKey(),
        ts: 1,
        history: [],
        lost: false,
        waiters: new Set(),
      },
      bans: new Map(),
      conversations: new Map(),
      messageSeq: 0,
      randomIds: new Map(),
      posts: new Map(),
      comments: new Map(),
      commentSeq: 9_000,
      guids: new Map(),
    };
    this.groups.set(group.id, group);
    this.tokens.set(group.token, { kind: 'group', group });
    return group;
  }

  /** A new community token for `group` (the old one stays valid unless revoked). */
  issueGroupToken(group: EmulatedGroup): string {
    const token = `vk1.a.group${group.id}.${newKey()}`;
    this.tokens.set(token, { kind: 'group', group });
    return token;
  }

  addUser(user: EmulatedUser): EmulatedUser {
    this.users.set(user.id, user);
    return user;
  }

  /** A user token; `adminOf` makes the user an administrator of that community. */
  issueUserToken(userId: number, adminOf?: EmulatedGroup): string {
    const token = `vk1.a.user${userId}.${newKey()}`;
    this.tokens.set(token, { kind: 'user', userId });
    adminOf?.admins.add(userId);
    return token;
  }

  caller(token: string | undefined): Caller {
    const caller = token && !this.revoked.has(token) ? this.tokens.get(token) : undefined;
    if (!caller) throw fault(5);
    return caller;
  }

  group(id: unknown): EmulatedGroup {
    const group = this.groups.get(Math.abs(Number(id)));
    if (!group) throw fault(100, 'group_id is invalid');
    return group;
  }
}

/** The community's own token, or an admin's user token; anything else is refused (15). */
export function requireManager(caller: Caller, group: EmulatedGroup) {
  if (caller.kind === 'group' && caller.group.id === group.id) return;
  if (caller.kind === 'user' && group.admins.has(caller.userId)) return;
  throw fault(15);
}

/** User-token methods (PROVIDERS §2): a community token gets error 27, a non-admin 15. */
export function requireAdminUser(caller: Caller, group: EmulatedGroup): number {
  if (caller.kind === 'group') throw fault(27);
  if (!group.admins.has(caller.userId)) throw fault(15);
  return caller.userId;
}

export function requireCommunity(caller: Caller): EmulatedGroup {
  if (caller.kind !== 'group') throw fault(15, 'community token required');
  return caller.group;
}

import { type MethodContext, type MethodHandler, num } from './emulator-groups';
import {
  type EmulatedGroup,
  fault,
  requireCommunity,
  type StoredMessage,
  type VkKeyboard,
} from './emulator-state';

// TEST-ONLY. Emulated community messages (PROVIDERS §2 "Outbound methods"): messages.send with random_id
// idempotency and peer_id / peer_ids answers, messages.edit, reactions by cmid, getConversations.

const CHAT_PEER_BASE = 2_000_000_000;
/** How long an own message stays editable; PROVIDERS §2 calls the window UNCONFIRMED (24 h here). */
export const MESSAGE_EDIT_WINDOW_S = 24 * 3600;

export function messageObject(m: StoredMessage) {
  return {
    id: m.id,
    conversation_message_id: m.conversation_message_id,
    date: m.date,
    ...(m.update_time ? { update_time: m.update_time } : {}),
    peer_id: m.peer_id,
    from_id: m.from_id,
    out: m.out,
    text: m.text,
    attachments: m.attachments,
    fwd_messages: [],
    important: false,
    is_hidden: false,
    random_id: m.random_id,
    ...(m.payload ? { payload: m.payload } : {}),
  };
}

/** Stores a message in the conversation with `peer` (cmid counts per conversation). */
export function storeMessage(
  group: EmulatedGroup,
  m: {
    peer: number;
    fromId: number;
    text: string;
    date: number;
    randomId?: number;
    attachments?: unknown[];
    keyboard?: VkKeyboard;
    payload?: string;
  },
): StoredMessage {
  const conversation = group.conversations.get(m.peer) ?? [];
  group.conversations.set(m.peer, conversation);
  group.messageSeq += 1;
  const stored: StoredMessage = {
    // In multi-user chats a community bot sees id 0 (PROVIDERS §2).
    id: m.peer >= CHAT_PEER_BASE ? 0 : group.messageSeq,
    conversation_message_id: conversation.length + 1,
    peer_id: m.peer,
    from_id: m.fromId,
    out: m.fromId === -group.id ? 1 : 0,
    text: m.text,
    date: m.date,
    random_id: m.randomId ?? 0,
    attachments: m.attachments ?? [],
    ...(m.keyboard ? { keyboard: m.keyboard } : {}),
    ...(m.payload ? { payload: m.payload } : {}),
    reactions: new Map(),
  };
  conversation.push(stored);
  return stored;
}

export function findMessage(group: EmulatedGroup, peer: number, cmid: number): StoredMessage {
  const found = group.conversations.get(peer)?.find((m) => m.conversation_message_id === cmid);
  if (!found) throw fault(104);
  return found;
}

/**
 * messages.send `keyboard`: a JSON string (PROVIDERS §2). Checked as VK documents it for bots: buttons in
 * rows, an inline keyboard at most 6 rows and 10 buttons, a text button's label up to 40 characters and
 * its payload a JSON string up to 255; anything else is error 911 (keyboard format is invalid).
 */
function parseKeyboard(raw: string): VkKeyboard {
  let keyboard: VkKeyboard;
  try {
    keyboard = JSON.parse(raw) as VkKeyboard;
  } catch {
    throw fault(911);
  }
  const rows = keyboard?.buttons;
  if (!Array.isArray(rows) || rows.some((r) => !Array.isArray(r))) throw fault(911);
  const buttons = rows.flat();
  if (keyboard.inline && (rows.length > 6 || buttons.length > 10)) throw fault(911, 'Too many buttons');
  for (const b of buttons) {
    const action = b?.action;
    if (!action || !['text', 'callback', 'open_link', 'location', 'vkpay', 'open_app'].includes(action.type))
      throw fault(911);
    if (
      (action.type === 'text' || action.type === 'callback') &&
      !(action.label && action.label.length <= 40)
    )
      throw fault(911, 'label');
    if (action.payload !== undefined) {
      if (action.payload.length > 255) throw fault(911, 'payload');
      try {
        JSON.parse(action.payload);
      } catch {
        throw fault(911, 'payload');
      }
    }
  }
  return keyboard;
}

function peersOf(ctx: MethodContext): number[] {
  const raw = ctx.params.peer_ids ?? ctx.params.peer_id ?? ctx.params.user_id;
  if (!raw) throw fault(100, 'peer_id is undefined');
  return raw.split(',').map((p) => Number(p));
}

export const messageMethods: Record<string, MethodHandler> = {
  'messages.send': (ctx) => {
    const group = requireCommunity(ctx.caller);
    // Required since 5.90 (PROVIDERS §2).
    const randomId = num(ctx, 'random_id');
    const text = ctx.params.message ?? '';
    if (!text && !ctx.params.attachment) throw fault(100, 'message is empty or invalid');
    if (text.length > 9000) throw fault(914);
    const keyboard = ctx.params.keyboard ? parseKeyboard(ctx.params.keyboard) : undefined;
    const results = peersOf(ctx).map((peer) => {
      const key = `${peer}:${randomId}`;
      const repeated = randomId !== 0 ? group.randomIds.get(key) : undefined;
      if (repeated) return repeated;
      const stored = storeMessage(group, {
        peer,
        fromId: -group.id,
        text,
        date: ctx.state.unix(),
        randomId,
        keyboard,
      });
      group.randomIds.set(key, stored);
      ctx.echo(group.id, 'message_reply', messageObject(stored));
      return stored;
    });
    if (ctx.params.peer_ids === undefined) return results[0]!.id;
    return results.map((m) => ({
      peer_id: m.peer_id,
      message_id: m.id,
      conversation_message_id: m.conversation_message_id,
    }));
  },

  'messages.edit': (ctx) => {
    const group = requireCommunity(ctx.caller);
    const peer = num(ctx, 'peer_id');
    const message = ctx.params.cmid
      ? findMessage(group, peer, num(ctx, 'cmid'))
      : group.conversations.get(peer)?.find((m) => m.id === num(ctx, 'message_id'));
    if (!message) throw fault(104);
    if (message.out !== 1) throw fault(15, 'can edit only own messages');
    if (ctx.state.unix() - message.date > MESSAGE_EDIT_WINDOW_S) throw fault(909);
    message.text = ctx.params.message ?? message.text;
    message.update_time = ctx.state.unix();
    ctx.echo(group.id, 'message_edit', messageObject(message));
    return 1;
  },

  'messages.sendReaction': (ctx) => {
    const group = requireCommunity(ctx.caller);
    const reaction = num(ctx, 'reaction_id');
    if (!Number.isInteger(reaction) || reaction < 1 || reaction > 64) throw fault(1009);
    findMessage(group, num(ctx, 'peer_id'), num(ctx, 'cmid')).reactions.set(-group.id, reaction);
    return 1;
  },

  'messages.deleteReaction': (ctx) => {
    const group = requireCommunity(ctx.caller);
    findMessage(group, num(ctx, 'peer_id'), num(ctx, 'cmid')).reactions.delete(-group.id);
    return 1;
  },

  'messages.getConversations': (ctx) => {
    const group = requireCommunity(ctx.caller);
    const count = Math.min(Number(ctx.params.count ?? 20), 200);
    const items = [...group.conversations.entries()]
      .map(([peer, list]) => ({ peer, last: list.at(-1)! }))
      .sort((a, b) => b.last.date - a.last.date)
      .slice(0, count)
      .map(({ peer, last }) => ({
        conversation: { peer: { id: peer, type: peer >= CHAT_PEER_BASE ? 'chat' : 'user', local_id: peer } },
        last_message: messageObject(last),
      }));
    return { count: group.conversations.size, items };
  },
};

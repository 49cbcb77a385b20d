import {
  type Ability,
  canPerform,
  isWithinEditWindow,
  type Locale,
  type ProviderEntry,
  translate,
  unavailableReason,
} from '@otklik/shared';
import type { InboxChat, InboxItem } from '../../../api/inboxTypes';

// Which actions an item or chat offers: ONLY what the network allows (docs/product/entities.md catalogue actions) AND the
// person's role permits (docs/product/roles.md, the shared ability table the server's policies use too).

export type Can = (ability: Ability) => boolean;

export interface ItemActions {
  reply: boolean;
  direct: boolean;
  /** Close after a reply was sent. */
  close: boolean;
  closeWithoutReply: boolean;
  reopen: boolean;
  inProgress: boolean;
  waiting: boolean;
  delay: boolean;
  delete: boolean;
  restore: boolean;
  hide: boolean;
  unhide: boolean;
  like: boolean;
  unlike: boolean;
  /** Report the comment to the network (catalogue `report`: VK). */
  report: boolean;
  react: boolean;
  block: boolean;
  unblock: boolean;
  tag: boolean;
  assign: boolean;
}

const OPEN_STATUSES = ['new', 'inprogress', 'open', 'waiting', 'delayed'];

export function itemActions(item: InboxItem, entry: ProviderEntry | null, can: Can): ItemActions {
  const allows = (action: Parameters<typeof canPerform>[1]) => entry !== null && canPerform(entry, action);
  const isOpen = OPEN_STATUSES.includes(item.status);
  const isCustomer = !item.is_own;
  const replied = item.first_reply_at !== null;
  const mayWork = can('items.close');
  const author = item.author;
  return {
    reply: isCustomer && !item.is_deleted && allows('reply') && can('items.reply'),
    direct: isCustomer && !item.is_deleted && allows('direct') && can('items.reply') && author !== null,
    close: isOpen && replied && mayWork,
    closeWithoutReply: isOpen && can('items.closeWithoutReply'),
    reopen: (item.status === 'closed' || item.status === 'delayed' || item.status === 'waiting') && mayWork,
    inProgress: item.status === 'new' && mayWork,
    waiting: isOpen && item.status !== 'waiting' && mayWork,
    delay: isOpen && mayWork,
    // X and Google Business Profile delete only the account's own posts: nothing to offer on a customer's.
    delete:
      isCustomer &&
      !item.is_deleted &&
      allows('delete') &&
      entry?.deleteOwnOnly !== true &&
      can('items.delete'),
    restore: isCustomer && item.is_deleted && allows('restore') && can('items.delete'),
    hide: isCustomer && !item.is_deleted && !item.is_hidden && allows('hide') && can('items.delete'),
    unhide: isCustomer && !item.is_deleted && item.is_hidden && allows('hide') && can('items.delete'),
    like: isCustomer && !item.is_deleted && !item.is_liked && allows('like') && can('items.reply'),
    unlike: isCustomer && !item.is_deleted && item.is_liked && allows('like') && can('items.reply'),
    report: isCustomer && !item.is_deleted && allows('report') && can('items.delete'),
    react:
      isCustomer && !item.is_deleted && allows('react') && entry?.reactions != null && can('items.reply'),
    // Offered only where the network's API bans (issue 13 #15); elsewhere the menu says why (blockUnavailable).
    block: author !== null && !author.is_blocked && allows('block') && can('authors.block'),
    unblock: author?.is_blocked === true && can('authors.block'),
    tag: can('items.tag'),
    assign: can('items.assign'),
  };
}

export interface ChatActions {
  reply: boolean;
  close: boolean;
  closeWithoutReply: boolean;
  reopen: boolean;
  inProgress: boolean;
  waiting: boolean;
  delay: boolean;
  /** React to the customer's messages (catalogue reactions.messages). */
  react: boolean;
  block: boolean;
  unblock: boolean;
  tag: boolean;
  assign: boolean;
}

export function chatActions(
  chat: InboxChat,
  entry: ProviderEntry | null,
  can: Can,
  options: { replied: boolean },
): ChatActions {
  const isOpen = OPEN_STATUSES.includes(chat.status);
  const mayWork = can('messages.close');
  const author = chat.author;
  return {
    reply: entry?.messages === true && canPerform(entry, 'reply') && can('messages.reply'),
    close: isOpen && options.replied && mayWork,
    closeWithoutReply: isOpen && can('messages.closeWithoutReply'),
    reopen: (chat.status === 'closed' || chat.status === 'delayed' || chat.status === 'waiting') && mayWork,
    inProgress: chat.status === 'new' && mayWork,
    waiting: isOpen && chat.status !== 'waiting' && mayWork,
    delay: isOpen && mayWork,
    react:
      entry !== null &&
      canPerform(entry, 'react') &&
      entry.reactions?.messages === true &&
      can('messages.reply'),
    block:
      author !== null &&
      !author.is_blocked &&
      entry !== null &&
      canPerform(entry, 'block') &&
      can('authors.block'),
    unblock: author?.is_blocked === true && can('authors.block'),
    tag: can('messages.tag'),
    assign: can('messages.assign'),
  };
}

/** An own reply the operator may still edit (docs/product/limits.md edit windows: VK 12 h, vc 20 min). */
export function canEditReply(
  reply: InboxItem,
  entry: ProviderEntry | null,
  can: Can,
  nowSeconds: number,
): boolean {
  if (!reply.is_own || reply.is_deleted || !entry || !can('items.reply')) return false;
  if (reply.delivery !== 'sent' && reply.delivery !== 'delivered' && reply.delivery !== 'read') return false;
  return isWithinEditWindow(entry, reply.created_at, nowSeconds);
}

/** The status an item returns to on "reopen". */
export const REOPEN_STATUS = 'inprogress' as const;

/** Has any action at all (read-only and analyst see none, docs/product/roles.md). */
export const hasAnyAction = (actions: object) => Object.values(actions).some(Boolean);

/**
 * Runs one action of a record page: a failure is shown (`onError`, a toast) and answered with false, so
 * the caller keeps its dialog open for another try; true when the action went through.
 */
export async function attemptAction(
  work: () => Promise<unknown>,
  onError: (error: unknown) => void,
): Promise<boolean> {
  try {
    await work();
    return true;
  } catch (error) {
    onError(error);
    return false;
  }
}

/**
 * Why the menu has no block entry for an author the person could otherwise block: the network's API
 * cannot ban (the shared catalogue's reason, the same text the server refuses with). Null otherwise.
 */
export function blockUnavailable(
  author: { is_blocked: boolean } | null,
  entry: ProviderEntry | null,
  can: Can,
  locale: Locale,
): string | null {
  if (!author || author.is_blocked || !entry || !can('authors.block')) return null;
  const reason = unavailableReason(entry, 'block');
  return reason ? translate(locale, reason.key, reason.params) : null;
}

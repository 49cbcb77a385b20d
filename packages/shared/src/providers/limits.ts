import type { MessageKey } from '../messages';
import { providers } from './catalogue';
import { PROVIDER_IDS, type ProviderId } from './ids';
import type { ProviderAction, ProviderEntry, ReplyKind } from './types';

// Helpers the server (before it calls a network) and the web (while the operator types) both use, so the
// two enforce docs/product/validation.md limits identically.

/** A provider given by id or by its catalogue entry. */
export type ProviderRef = ProviderId | ProviderEntry;

export function getProvider(id: ProviderId): ProviderEntry {
  const entry = providers[id];
  // Types rule this out; the guard catches ids that arrive unchecked from storage or the wire.
  if (!entry) throw new Error(`Unknown provider id: ${String(id)}`);
  return entry;
}

function resolve(provider: ProviderRef): ProviderEntry {
  return typeof provider === 'string' ? getProvider(provider) : provider;
}

/** Providers offered on the connect screen, in docs/product/entities.md order. */
export function listConnectableProviders(): ProviderEntry[] {
  return PROVIDER_IDS.map((id) => providers[id]).filter((entry) => !entry.hidden);
}

/** Whether the provider carries private messages ('message') or public comments/reviews ('comment'). */
export function supportsReplyKind(provider: ProviderRef, kind: ReplyKind): boolean {
  const entry = resolve(provider);
  return kind === 'message' ? entry.messages : entry.comments.length > 0;
}

/**
 * Length of a text as the limits count it: UTF-16 code units, like a browser's `maxlength` and like
 * Telegram. Networks that count code points allow at least as much, so this never lets through a text
 * a network refuses for length.
 */
export function characterCount(text: string): number {
  return text.length;
}

const utf8 = new TextEncoder();

export function utf8ByteLength(text: string): number {
  return utf8.encode(text).length;
}

/**
 * Maximum characters of a message/comment, or null when docs/product/validation.md names no limit. With attachments the
 * caption limit (messageAttach/commentAttach) applies where the network has one.
 */
export function textLimit(provider: ProviderRef, kind: ReplyKind, hasAttachments: boolean): number | null {
  const { length } = resolve(provider);
  const plain = kind === 'message' ? length.message : length.comment;
  const caption = kind === 'message' ? length.messageAttach : length.commentAttach;
  return (hasAttachments ? caption : undefined) ?? plain ?? null;
}

/** Maximum UTF-8 bytes, or null when only characters count (docs/product/validation.md: Instagram messages, 1000 bytes). */
export function byteLimit(provider: ProviderRef, kind: ReplyKind): number | null {
  return kind === 'message' ? (resolve(provider).length.messageBytes ?? null) : null;
}

/** Maximum attachments per message/comment; 0 when docs/product/validation.md lists none for the provider. */
export function attachmentLimit(provider: ProviderRef, kind: ReplyKind): number {
  return resolve(provider).upload[kind] ?? 0;
}

export type ReplyLimitCode = 'text_too_long' | 'bytes_too_long' | 'too_many_attachments' | 'not_supported';

export interface ReplyLimitViolation {
  readonly code: ReplyLimitCode;
  /** The limit that was exceeded (characters, bytes or attachments); 0 for not_supported. */
  readonly limit: number;
}

export interface ReplyDraft {
  readonly text: string;
  /** Number of attached files. */
  readonly attachments: number;
}

/**
 * The first limit a reply breaks, or null when it may be sent. Checked in this order: the provider
 * can't reply with this kind at all; too many attachments; too many characters (caption limit when
 * attachments are present); too many UTF-8 bytes.
 */
export function checkReplyLimits(
  provider: ProviderRef,
  kind: ReplyKind,
  draft: ReplyDraft,
): ReplyLimitViolation | null {
  const entry = resolve(provider);
  if (!entry.actions.reply || !supportsReplyKind(entry, kind)) return { code: 'not_supported', limit: 0 };

  const maxAttachments = attachmentLimit(entry, kind);
  if (draft.attachments > maxAttachments) return { code: 'too_many_attachments', limit: maxAttachments };

  const maxChars = textLimit(entry, kind, draft.attachments > 0);
  if (maxChars !== null && characterCount(draft.text) > maxChars) {
    return { code: 'text_too_long', limit: maxChars };
  }

  const maxBytes = byteLimit(entry, kind);
  if (maxBytes !== null && utf8ByteLength(draft.text) > maxBytes) {
    return { code: 'bytes_too_long', limit: maxBytes };
  }

  return null;
}

/**
 * Why an action the network's API lacks is not offered (issue 13 #15): the message the web shows in
 * place of the action and the server answers with, or null when the network allows it.
 */
export function unavailableReason(
  provider: ProviderRef,
  action: 'block' | 'report',
): { key: MessageKey; params: { network: string } } | null {
  const entry = resolve(provider);
  if (entry.actions[action]) return null;
  return {
    key: action === 'block' ? 'action.block.unsupported' : 'action.report.unsupported',
    params: { network: entry.name },
  };
}

/** Whether the network allows the action at all; a timed edit_comment counts as allowed. */
export function canPerform(provider: ProviderRef, action: ProviderAction): boolean {
  return resolve(provider).actions[action] !== false;
}

/**
 * How long a sent reply stays editable, in seconds: the docs/product/limits.md window (VK 43200, vc 1200),
 * Infinity when the network sets none, or null when replies can't be edited.
 */
export function editWindowSeconds(provider: ProviderRef): number | null {
  const edit = resolve(provider).actions.edit_comment;
  if (edit === false) return null;
  return edit === true ? Number.POSITIVE_INFINITY : edit;
}

/** Whether a reply sent at `sentAt` may still be edited at `now` (both unix seconds). */
export function isWithinEditWindow(provider: ProviderRef, sentAt: number, now: number): boolean {
  const window = editWindowSeconds(provider);
  // Strictly less: at the boundary second the network may already refuse.
  return window !== null && now - sentAt < window;
}

import {
  attachmentLimit,
  BULK_REPLY_MAX,
  byteLimit,
  characterCount,
  checkReplyLimits,
  getProvider,
  IMAGE_UPLOAD_MAX_BYTES,
  isProviderId,
  type ProviderEntry,
  type ReplyKind,
  type ReplyLimitViolation,
  textLimit,
  utf8ByteLength,
  VIDEO_UPLOAD_MAX_BYTES,
} from '@otklik/shared';

// What the composer shows while the operator types (docs/product/validation.md limits, via the shared catalogue — the
// server checks the same numbers before it calls the network).

export function providerEntry(provider: string | undefined): ProviderEntry | null {
  return provider && isProviderId(provider) ? getProvider(provider) : null;
}

export interface ComposerLimits {
  /** Characters allowed (the caption limit when files are attached), null when unlimited. */
  charLimit: number | null;
  /** Characters left; negative when over. */
  charsLeft: number | null;
  byteLimit: number | null;
  bytesLeft: number | null;
  maxAttachments: number;
  /** The first broken limit, 'empty' for nothing to send, or null when it may be sent. */
  problem: ReplyLimitViolation | { code: 'empty'; limit: 0 } | null;
}

export function composerLimits(
  provider: string | undefined,
  kind: ReplyKind,
  text: string,
  attachments: number,
): ComposerLimits {
  const entry = providerEntry(provider);
  if (!entry) {
    return {
      charLimit: null,
      charsLeft: null,
      byteLimit: null,
      bytesLeft: null,
      maxAttachments: 0,
      problem: { code: 'not_supported', limit: 0 },
    };
  }
  const charLimit = textLimit(entry, kind, attachments > 0);
  const bytes = byteLimit(entry, kind);
  const trimmed = text.trim();
  const violation = checkReplyLimits(entry, kind, { text: trimmed, attachments });
  return {
    charLimit,
    charsLeft: charLimit === null ? null : charLimit - characterCount(trimmed),
    byteLimit: bytes,
    bytesLeft: bytes === null ? null : bytes - utf8ByteLength(trimmed),
    maxAttachments: attachmentLimit(entry, kind),
    problem: violation ?? (trimmed === '' && attachments === 0 ? { code: 'empty', limit: 0 } : null),
  };
}

/** Types the server accepts (apps/server/src/modules/inbox/actions/uploads.ts). */
export const UPLOAD_TYPES: Record<string, 'image' | 'video'> = {
  'image/jpeg': 'image',
  'image/png': 'image',
  'image/gif': 'image',
  'image/webp': 'image',
  'video/mp4': 'video',
  'video/quicktime': 'video',
  'video/webm': 'video',
};
export const UPLOAD_ACCEPT = Object.keys(UPLOAD_TYPES).join(',');

export type FileProblem =
  | { code: 'upload.unsupportedType' }
  | { code: 'upload.tooLarge'; limitMb: number }
  | { code: 'reply.tooManyAttachments'; limit: number };

/** docs/product/validation.md, limits.md: images up to 5 MB, video up to 10 MB, and no more files than the network takes. */
export function checkFile(
  file: { type: string; size: number },
  attached: number,
  max: number,
): FileProblem | null {
  if (attached >= max) return { code: 'reply.tooManyAttachments', limit: max };
  const kind = UPLOAD_TYPES[file.type.toLowerCase()];
  if (!kind) return { code: 'upload.unsupportedType' };
  const limit = kind === 'image' ? IMAGE_UPLOAD_MAX_BYTES : VIDEO_UPLOAD_MAX_BYTES;
  if (file.size > limit) return { code: 'upload.tooLarge', limitMb: Math.round(limit / (1024 * 1024)) };
  return null;
}

/** Checked here too so the operator hears it before writing; the server stays authoritative. */
export { BULK_REPLY_MAX };

/** docs/product/validation.md: one reply to several comments needs them in one account, and not too many. */
export function checkBulkReply(
  items: ReadonlyArray<{ object_id: number }>,
): 'comments.sameAccount' | 'comments.tooMany' | null {
  if (items.length > BULK_REPLY_MAX) return 'comments.tooMany';
  if (new Set(items.map((item) => item.object_id)).size > 1) return 'comments.sameAccount';
  return null;
}

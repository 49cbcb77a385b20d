import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { IMAGE_UPLOAD_MAX_BYTES, type MessageKey, VIDEO_UPLOAD_MAX_BYTES } from '@otklik/shared';
import type { Attachment } from '../../../db/schema';
import type { Config } from '../../../lib/config';
import { randomToken } from '../../../lib/crypto';
import { AppError } from '../../../lib/errors';

// Files operators attach to replies (docs/product/validation.md, limits.md: images up to 5 MB, video up to 10 MB), stored under
// DATA_DIR/uploads and served at /v1/uploads/{name} — networks fetch them from there. Only raster
// images and common video: no SVG or HTML, which a browser would run on our origin.

const TYPES: Record<string, { ext: string; type: 'image' | 'video' }> = {
  'image/jpeg': { ext: 'jpg', type: 'image' },
  'image/png': { ext: 'png', type: 'image' },
  'image/gif': { ext: 'gif', type: 'image' },
  'image/webp': { ext: 'webp', type: 'image' },
  'video/mp4': { ext: 'mp4', type: 'video' },
  'video/quicktime': { ext: 'mov', type: 'video' },
  'video/webm': { ext: 'webm', type: 'video' },
};
const MIME_BY_EXT = new Map(Object.entries(TYPES).map(([mime, t]) => [t.ext, mime]));
const NAME = /^[A-Za-z0-9_-]{16,64}\.([a-z0-9]{2,5})$/;

export const UPLOAD_MAX_BYTES = Math.max(IMAGE_UPLOAD_MAX_BYTES, VIDEO_UPLOAD_MAX_BYTES);
const limitFor = (type: 'image' | 'video') =>
  type === 'image' ? IMAGE_UPLOAD_MAX_BYTES : VIDEO_UPLOAD_MAX_BYTES;
const megabytes = (bytes: number) => Math.round(bytes / (1024 * 1024));

export const uploadsDir = (config: Config) => join(config.dataDir, 'uploads');
const urlOf = (config: Config, name: string) => `${config.appUrl}/v1/uploads/${name}`;

/** Where and what: replies' files live in DATA_DIR/uploads itself; other owners keep a subfolder of it. */
export interface UploadRules {
  /** Below DATA_DIR/uploads (e.g. `issues/12`); files there are not served by /v1/uploads/{name}. */
  folder?: string;
  /** MIME type → extension stored. */
  types: Record<string, string>;
  maxBytes: (mime: string) => number;
  /** Message keys for the refusals. */
  unsupportedKey: MessageKey;
  tooLargeKey: MessageKey;
}

/** A file written under DATA_DIR/uploads[/folder], checked for type and size. */
export interface StoredUpload {
  /** The stored name (random, with the type's extension). */
  file: string;
  name: string;
  mime: string;
  size: number;
}

const folderOf = (config: Config, folder?: string) =>
  folder ? join(uploadsDir(config), folder) : uploadsDir(config);

/**
 * Streams an upload to disk and checks it: an allowed type, within its size limit. `truncated` is set by
 * the multipart parser when the stream went past the parser's limit. The one upload store of the app:
 * replies' files (saveUpload) and tasks' comment files (modules/issues) both go through here.
 */
export async function storeUpload(
  config: Config,
  file: { mimetype: string; filename: string; file: Readable & { truncated?: boolean } },
  rules: UploadRules,
): Promise<StoredUpload> {
  const mime = file.mimetype.toLowerCase();
  const ext = rules.types[mime];
  if (!ext) {
    file.file.resume();
    throw new AppError(400, rules.unsupportedKey, { errorType: 'unsupported_type' });
  }
  const dir = folderOf(config, rules.folder);
  await mkdir(dir, { recursive: true });
  const name = `${randomToken(18)}.${ext}`;
  const path = join(dir, name);
  await pipeline(file.file, createWriteStream(path));
  const { size } = await stat(path);
  const limit = rules.maxBytes(mime);
  if (file.file.truncated || size > limit) {
    await unlink(path).catch(() => {});
    throw new AppError(400, rules.tooLargeKey, {
      errorType: 'too_large',
      params: { limit: megabytes(limit) },
      body: { limit },
    });
  }
  return { file: name, name: file.filename.slice(0, 255) || name, mime, size };
}

/** A stored file by its name, or null for a name that is not one of ours (or not there). */
export async function openStored(config: Config, name: string, rules: Pick<UploadRules, 'folder' | 'types'>) {
  const match = NAME.exec(name);
  const mime = match ? Object.entries(rules.types).find(([, ext]) => ext === match[1])?.[0] : undefined;
  if (!match || !mime) return null;
  const path = join(folderOf(config, rules.folder), name);
  try {
    const { size } = await stat(path);
    return { stream: createReadStream(path), mime, size };
  } catch {
    return null;
  }
}

const REPLY_TYPES = Object.fromEntries(Object.entries(TYPES).map(([mime, t]) => [mime, t.ext]));
const REPLY_RULES: UploadRules = {
  types: REPLY_TYPES,
  maxBytes: (mime) => limitFor(TYPES[mime]?.type ?? 'video'),
  unsupportedKey: 'upload.unsupportedType',
  tooLargeKey: 'upload.tooLarge',
};

/** A reply's file: stored in DATA_DIR/uploads and served publicly at /v1/uploads/{name} (networks fetch it). */
export async function saveUpload(
  config: Config,
  file: { mimetype: string; filename: string; file: Readable & { truncated?: boolean } },
): Promise<Attachment> {
  const stored = await storeUpload(config, file, REPLY_RULES);
  return {
    type: TYPES[stored.mime]!.type,
    url: urlOf(config, stored.file),
    name: stored.name,
    mime: stored.mime,
    size: stored.size,
  };
}

/** A stored upload to send, or null for a name that is not one of ours. */
export async function openUpload(config: Config, name: string) {
  return openStored(config, name, REPLY_RULES);
}

/**
 * Attachments of a reply must be our uploads (so a connector never fetches an arbitrary address);
 * they are re-described from disk, whatever the client claimed about them.
 */
export async function resolveAttachments(
  config: Config,
  list: Array<{ url: string; name?: string }>,
): Promise<Attachment[]> {
  const resolved: Attachment[] = [];
  for (const entry of list) {
    const name = entry.url.split('?')[0]!.split('/').pop() ?? '';
    const isOurs =
      entry.url.startsWith(`${config.appUrl}/v1/uploads/`) || entry.url.startsWith('/v1/uploads/');
    const match = NAME.exec(name);
    const mime = match ? MIME_BY_EXT.get(match[1]!) : undefined;
    const size =
      isOurs && mime
        ? await stat(join(uploadsDir(config), name)).then(
            (s) => s.size,
            () => null,
          )
        : null;
    if (!mime || size === null) {
      throw new AppError(400, 'attachment.invalid', {
        errorType: 'validation',
        fields: { attachments: 'attachment.invalid' },
      });
    }
    resolved.push({
      type: TYPES[mime]!.type,
      url: urlOf(config, name),
      name: entry.name?.slice(0, 255) ?? name,
      mime,
      size,
    });
  }
  return resolved;
}

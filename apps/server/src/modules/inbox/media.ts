import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/client';
import type { Attachment } from '../../db/schema';
import { messages, objects, posts } from '../../db/schema';
import { type Authenticate, signedInScope } from '../../http/auth';
import { AppError } from '../../lib/errors';
import { connectorContext } from '../../providers/context';
import { downloadPublicMedia, MediaTooLarge } from '../../providers/media';
import { getConnector } from '../../providers/registry';
import { ConnectorError, type FetchedMedia, failureParam } from '../../providers/types';
import type { EventBus } from '../../realtime/bus';
import type { AppDeps } from '../deps';
import { getScopedChat, getScopedItem, inScope, scopeFor } from './read/scope';

// Files customers sent (issue #5: "fetched and kept"): those the network keeps behind the account's
// token (Telegram file ids, WhatsApp media ids) through the connector, those it links to publicly (VK,
// Viber, MAX CDNs, whose links expire) directly — public addresses only. Each is fetched once, as soon
// as the node that stored the message has a moment (or when first opened), kept under DATA_DIR/media,
// and served from there to members who may see the item or chat it belongs to.

const isWebUrl = (url: string) => /^https?:\/\//i.test(url);

const attachmentParams = z.object({
  id: z.coerce.number().int().positive(),
  index: z.coerce.number().int().min(0).max(99),
});

/** Served inline only when a browser cannot run it: pictures (no SVG), video, audio. */
const INLINE = /^(image\/(png|jpeg|gif|webp|avif|bmp)|video\/[\w.+-]+|audio\/[\w.+-]+)$/;

interface Kept {
  contentType: string | null;
}

/**
 * Network files kept under DATA_DIR/media: fetched once through the account's connector (concurrent
 * requests share the download), then read from disk.
 */
export class MediaStore {
  private readonly dir: string;
  private readonly inFlight = new Map<string, Promise<FetchedMedia>>();

  constructor(
    private readonly deps: Pick<AppDeps, 'sealer' | 'config' | 'log' | 'mediaNetwork'> & { db: Db },
    readonly maxBytes = deps.config.MEDIA_MAX_MB * 1024 * 1024,
  ) {
    this.dir = join(deps.config.dataDir, 'media');
  }

  async obtain(objectId: number, ref: string): Promise<FetchedMedia> {
    const key = createHash('sha256').update(`${objectId}:${ref}`).digest('hex');
    const path = join(this.dir, key);
    const kept = await readFile(path).catch(() => null);
    if (kept) {
      const meta = JSON.parse(await readFile(`${path}.json`, 'utf8').catch(() => '{}')) as Kept;
      return { body: kept, contentType: meta.contentType ?? null };
    }
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.fetchAndKeep(objectId, ref, path).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  private async fetchAndKeep(objectId: number, ref: string, path: string) {
    const media = isWebUrl(ref)
      ? await this.fetchPublic(ref)
      : await this.fetchThroughConnector(objectId, ref);
    await mkdir(this.dir, { recursive: true });
    const meta: Kept = { contentType: media.contentType };
    await writeFile(`${path}.json.tmp`, JSON.stringify(meta));
    await rename(`${path}.json.tmp`, `${path}.json`);
    await writeFile(`${path}.tmp`, media.body);
    await rename(`${path}.tmp`, path);
    return media;
  }

  /** A file the network links to publicly (VK, Viber, MAX CDNs): links expire, the copy stays. */
  private async fetchPublic(url: string) {
    return downloadPublicMedia(url, {
      maxBytes: this.maxBytes,
      what: new URL(url).host,
      network: this.deps.mediaNetwork,
      allowPrivate: this.deps.config.MEDIA_FETCH_PRIVATE === 'true',
    });
  }

  private async fetchThroughConnector(objectId: number, ref: string) {
    const [object] = await this.deps.db.select().from(objects).where(eq(objects.id, objectId)).limit(1);
    const connector = object ? getConnector(object.provider) : undefined;
    if (!object || !connector?.fetchMedia)
      throw new AppError(404, 'media.unavailable', { params: { reason: ref } });
    return connector.fetchMedia(connectorContext(this.deps, object), ref, { maxBytes: this.maxBytes });
  }

  /**
   * Keeps the files of what was just stored, in the background, so they outlive the network's own
   * retention (WhatsApp keeps media 30 days). Only the node that stored them does it (`origin`); one
   * file at a time, so a burst never competes with the inbox; a failure is logged and the file is
   * fetched when someone opens it instead.
   */
  watch(bus: EventBus): () => void {
    let queue = Promise.resolve();
    return bus.subscribe((event) => {
      if (event.origin !== bus.nodeId) return;
      if (event.type !== 'items.created' && event.type !== 'messages.created') return;
      const objectId = Number(event.payload.object_id);
      const rows = (event.payload.items ?? event.payload.messages) as
        | Array<{ attachments?: Attachment[] }>
        | undefined;
      // Files, not links a customer shared (type 'link' is somebody's web page).
      const refs = (rows ?? []).flatMap((row) =>
        (row.attachments ?? []).filter((a) => a.type !== 'link').map((a) => a.url),
      );
      if (!Number.isInteger(objectId) || refs.length === 0) return;
      queue = queue.then(async () => {
        for (const ref of refs) {
          await this.obtain(objectId, ref).catch((error: unknown) => {
            // A network whose files we cannot fetch yet (no fetchMedia) keeps its reference only.
            if (error instanceof AppError && error.status === 404) return;
            this.deps.log.warn({ objectId, ref, err: String(error) }, 'Could not keep a network file');
          });
        }
      });
    });
  }
}

export async function registerMediaRoutes(root: FastifyInstance, deps: AppDeps, authenticate: Authenticate) {
  await signedInScope(root, authenticate, async (app) => {
    const { db } = deps.database;
    const store = new MediaStore({ ...deps, db });
    const stopWatching = store.watch(deps.bus);
    root.addHook('onClose', async () => stopWatching());

    async function send(reply: FastifyReply, objectId: number, list: Attachment[], index: number) {
      const attachment = list[index];
      if (!attachment) throw new AppError(404, 'error.notFound');
      // A shared web page is a link to follow, not a file of ours.
      if (attachment.type === 'link') return reply.redirect(attachment.url);
      let media: FetchedMedia;
      try {
        media = await store.obtain(objectId, attachment.url);
      } catch (error) {
        if (error instanceof MediaTooLarge)
          throw new AppError(413, 'media.tooLarge', { params: { limit: deps.config.MEDIA_MAX_MB } });
        if (error instanceof ConnectorError)
          throw new AppError(502, 'media.unavailable', { params: { reason: failureParam(error) } });
        throw error;
      }
      const type = media.contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
      const inline = INLINE.test(type);
      const name = attachment.name ?? `${attachment.type}-${index + 1}`;
      return reply
        .header('content-type', inline ? type : 'application/octet-stream')
        .header(
          'content-disposition',
          `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(name)}`,
        )
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'private, max-age=86400')
        .send(media.body);
    }

    const schema = (summary: string) => ({
      tags: ['inbox'],
      summary,
      params: attachmentParams,
    });

    app.get(
      '/items/:id/attachments/:index',
      { schema: schema("An item's attachment, fetched from the network once") },
      async (req, reply) => {
        const { actor } = req;
        const item = await getScopedItem(db, actor, req.params.id, 'items.view');
        return send(reply, item.objectId, item.attachments, req.params.index);
      },
    );

    app.get(
      '/messages/:id/attachments/:index',
      {
        schema: schema("A chat message's attachment, fetched from the network once"),
      },
      async (req, reply) => {
        const { actor } = req;
        const [message] = await db.select().from(messages).where(eq(messages.id, req.params.id)).limit(1);
        if (!message) throw new AppError(404, 'error.notFound');
        const chat = await getScopedChat(db, actor, message.chatId, 'messages.view');
        return send(reply, chat.objectId, message.attachments, req.params.index);
      },
    );

    app.get(
      '/posts/:id/attachments/:index',
      { schema: schema("A post's attachment, fetched from the network once") },
      async (req, reply) => {
        const { actor } = req;
        const [post] = await db.select().from(posts).where(eq(posts.id, req.params.id)).limit(1);
        const scope = await scopeFor(db, actor, 'items.view');
        if (!post || !inScope(scope, post.spaceId, post.objectId)) throw new AppError(404, 'error.notFound');
        return send(reply, post.objectId, post.attachments, req.params.index);
      },
    );
  });
}

import multipart from '@fastify/multipart';
import { can } from '@otklik/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../../lib/errors';
import type { RouteContext } from './routes';
import { openUpload, saveUpload, UPLOAD_MAX_BYTES } from './uploads';

const TAG = ['inbox'];

/** Attachments for replies: upload (multipart, field `file`) and serve. */
export async function registerUploadRoutes(
  root: FastifyInstance,
  { deps, authenticated, performer }: RouteContext,
) {
  // The multipart parser belongs to this scope only.
  await root.register(multipart, {
    limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 5 },
    throwFileSizeLimit: false,
  });
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/uploads',
    {
      preHandler: authenticated,
      schema: {
        tags: TAG,
        security: [{ bearer: [] }],
        summary: 'Upload an image (up to 5 MB) or a video (up to 10 MB) to attach to a reply',
        consumes: ['multipart/form-data'],
      },
    },
    async (req) => {
      const who = await performer(req);
      const mayReply =
        who.kind === 'user' && (can(who.actor, 'items.reply') || can(who.actor, 'messages.reply'));
      if (!mayReply) throw new AppError(403, 'error.noAccess');
      if (!req.isMultipart()) throw new AppError(400, 'upload.missing');
      const file = await req.file();
      if (!file) throw new AppError(400, 'upload.missing');
      return saveUpload(deps.config, file);
    },
  );

  app.get(
    '/uploads/:name',
    {
      schema: {
        tags: TAG,
        summary: 'A file attached to a reply',
        params: z.object({ name: z.string().max(100) }),
      },
    },
    async (req, reply) => {
      const file = await openUpload(deps.config, req.params.name);
      if (!file) throw new AppError(404, 'error.notFound');
      return reply
        .type(file.mime)
        .header('content-length', file.size)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(file.stream);
    },
  );
}

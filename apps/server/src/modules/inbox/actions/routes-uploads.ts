import multipart from '@fastify/multipart';
import { attachmentSchema, can } from '@otklik/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ZodApp } from '../../../http/auth';
import { AppError } from '../../../lib/errors';
import type { RouteContext } from './routes';
import { openUpload, saveUpload, UPLOAD_MAX_BYTES } from './uploads';

const TAG = ['inbox'];

/** The multipart parser, for the inbox actions' scope only (routes.ts). */
export async function registerUploadParser(scope: FastifyInstance) {
  await scope.register(multipart, {
    limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 5 },
    throwFileSizeLimit: false,
  });
}

/** Attachments for replies: upload (multipart, field `file`), for a signed-in caller. */
export function registerUploadRoutes(app: ZodApp, { deps, performer }: RouteContext) {
  app.post(
    '/uploads',
    {
      schema: {
        tags: TAG,
        summary: 'Upload an image (up to 5 MB) or a video (up to 10 MB) to attach to a reply',
        consumes: ['multipart/form-data'],
        response: { 200: attachmentSchema },
      },
    },
    async (req) => {
      const who = performer(req);
      const mayReply =
        who.kind === 'user' && (can(who.actor, 'items.reply') || can(who.actor, 'messages.reply'));
      if (!mayReply) throw new AppError(403, 'error.noAccess');
      if (!req.isMultipart()) throw new AppError(400, 'upload.missing');
      const file = await req.file();
      if (!file) throw new AppError(400, 'upload.missing');
      return saveUpload(deps.config, file);
    },
  );
}

/** The attached files, served to anyone with the (unguessable) name. */
export function registerUploadFiles(root: FastifyInstance, { deps }: RouteContext) {
  root.withTypeProvider<ZodTypeProvider>().get(
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

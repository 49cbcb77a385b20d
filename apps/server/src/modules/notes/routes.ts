import {
  mentionableWireSchema,
  mentionsReadWireSchema,
  mentionsWireSchema,
  noteAnswerWireSchema,
  noteInputSchema,
  notesWireSchema,
  okTrueWireSchema,
} from '@otklik/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { type Authenticate, signedInScope } from '../../http/auth';
import { AppError } from '../../lib/errors';
import type { AppDeps } from '../deps';
import { getScopedChat, getScopedItem } from '../inbox/read/scope';
import { presentNote } from './presenter';
import * as service from './service';

const TAG = ['inbox'];
const id = z.coerce
  .number()
  .int()
  .positive()
  .max(2 ** 53 - 1);
const idParams = z.object({ id });
const noteParams = z.object({ id, noteId: id });
const mentionsQuery = z.object({ kind: z.enum(['item', 'chat']).default('item') });
const readBody = z.object({ item_id: id.optional(), chat_id: id.optional() });

const KINDS = [
  { kind: 'item', path: 'items' },
  { kind: 'chat', path: 'chats' },
] as const;

/**
 * Internal notes on items and chats with @mentions (issue 13), and "Mentions of me". Notes are read and
 * written by whoever may see the record (items.view / messages.view, user groups included).
 */
export async function registerNotesModule(root: FastifyInstance, deps: AppDeps, authenticate: Authenticate) {
  await signedInScope(root, authenticate, async (app) => {
    const { db } = deps.database;
    const serviceDeps = { db, bus: deps.bus };

    async function target(req: FastifyRequest, kind: 'item' | 'chat', recordId: number) {
      const { actor } = req;
      return kind === 'item'
        ? ({ kind, row: await getScopedItem(db, actor, recordId, 'items.view') } as const)
        : ({ kind, row: await getScopedChat(db, actor, recordId, 'messages.view') } as const);
    }
    const author = (req: FastifyRequest) => ({ id: req.auth!.user.id, name: req.auth!.user.name });

    for (const { kind, path } of KINDS) {
      app.get(
        `/${path}/:id/notes`,
        {
          schema: {
            tags: TAG,
            summary: `Internal notes of one ${kind}, oldest first (colleagues only, never sent to the network)`,
            params: idParams,
            response: { 200: notesWireSchema },
          },
        },
        async (req) => {
          const rows = await service.listNotes(db, await target(req, kind, req.params.id));
          return { items: rows.map((r) => presentNote(r.note, r.userName)) };
        },
      );

      app.get(
        `/${path}/:id/mentionable`,
        {
          schema: {
            tags: TAG,
            summary: `Colleagues who may see this ${kind}: whom a note may @mention`,
            params: idParams,
            response: { 200: mentionableWireSchema },
          },
        },
        async (req) => ({ items: await service.mentionable(db, await target(req, kind, req.params.id)) }),
      );

      app.post(
        `/${path}/:id/notes`,
        {
          schema: {
            tags: TAG,
            summary: `Add an internal note to a ${kind}; mentions are <@user id> in the text`,
            params: idParams,
            body: noteInputSchema,
            response: { 200: noteAnswerWireSchema },
          },
        },
        async (req) => {
          const note = await service.createNote(
            serviceDeps,
            await target(req, kind, req.params.id),
            author(req),
            req.body.text,
          );
          return { note: presentNote(note, req.auth!.user.name) };
        },
      );

      app.put(
        `/${path}/:id/notes/:noteId`,
        {
          schema: {
            tags: TAG,
            summary: 'Edit an own note within the edit window; the earlier text is kept',
            params: noteParams,
            body: noteInputSchema,
            response: { 200: noteAnswerWireSchema },
          },
        },
        async (req) => {
          const note = await service.editNote(
            serviceDeps,
            await target(req, kind, req.params.id),
            author(req),
            req.params.noteId,
            req.body.text,
          );
          return { note: presentNote(note, req.auth!.user.name) };
        },
      );

      app.delete(
        `/${path}/:id/notes/:noteId`,
        {
          schema: {
            tags: TAG,
            summary: 'Delete an own note within the edit window; the history keeps it',
            params: noteParams,
            response: { 200: okTrueWireSchema },
          },
        },
        async (req) => {
          await service.deleteNote(
            serviceDeps,
            await target(req, kind, req.params.id),
            req.auth!.user.id,
            req.params.noteId,
          );
          return { ok: true as const };
        },
      );
    }

    app.get(
      '/mentions',
      {
        schema: {
          tags: TAG,
          summary: 'Mentions of me: items or chats where a note @mentions the caller, not yet seen',
          querystring: mentionsQuery,
          response: { 200: mentionsWireSchema },
        },
      },
      async (req) => ({
        items: await service.listMentions(db, req.actor, req.query.kind),
      }),
    );

    app.post(
      '/mentions/read',
      {
        schema: {
          tags: TAG,
          summary: "Mark mentions read: one item's, one chat's, or (no body fields) all of them",
          body: readBody,
          response: { 200: mentionsReadWireSchema },
        },
      },
      async (req) => {
        const userId = req.auth!.user.id;
        if (req.body.item_id !== undefined && req.body.chat_id !== undefined)
          throw new AppError(400, 'error.validation');
        if (req.body.item_id !== undefined || req.body.chat_id !== undefined) {
          const kind = req.body.item_id !== undefined ? 'item' : 'chat';
          const t = await target(req, kind, (req.body.item_id ?? req.body.chat_id)!);
          return {
            read: await service.markMentionsSeen(serviceDeps, userId, {
              kind,
              id: t.row.id,
              spaceId: t.row.spaceId,
            }),
          };
        }
        return { read: await service.markAllMentionsSeen(serviceDeps, userId) };
      },
    );
  });
}

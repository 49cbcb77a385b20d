import {
  authorListEntryWireSchema,
  authorPageWireSchema,
  authorWireSchema,
  beforePageWireSchema,
  chatWireSchema,
  itemWireSchema,
  labelWireSchema,
  listWireSchema,
} from '@otklik/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { type Authenticate, signedInScope } from '../../http/auth';
import { registerManagedKind } from '../../http/managed-routes';
import type { AppDeps } from '../deps';
import { presentChat, presentItem } from '../inbox/read/presenter';
import { issueScope } from '../issues/policy';
import { authorize } from '../spaces/actor';
import { assertVisible, listSpaceIds, manageableBy } from '../tags/policy';
import * as labelsService from './labels';
import {
  assertContentAccess,
  authorizeAuthorList,
  authorizeLabelling,
  contentScopes,
  getVisibleAuthor,
} from './policy';
import { presentAuthorListEntry, presentAuthorStats, presentLabel, presentSpaceAuthor } from './presenter';
import {
  findAuthorChats,
  findAuthorItems,
  findAuthors,
  getAuthorStats,
  labelIdsOf,
  type Page,
} from './queries';
import {
  authorLabelsBody,
  authorListQuery,
  createLabelBody,
  idParams,
  labelAuthorsQuery,
  pageQuery,
  spaceQuery,
  updateLabelBody,
} from './schemas';

const LABELS_ABILITY = 'labels.manage' as const;

type ContentExtras = { author: ReturnType<typeof presentSpaceAuthor>; tags: number[]; provider: string };

/**
 * Authors (docs/product/screens-and-routes.md author/{id}, {items|chats|issues}/authors) and Settings → author labels (labels,
 * labels/{id}/authors). Blocking authors (POST /v1/authors/:id/block|unblock) lives with moderation.
 */
export async function registerAuthorsModule(
  root: FastifyInstance,
  deps: AppDeps,
  authenticate: Authenticate,
) {
  await signedInScope(root, authenticate, async (app) => {
    const { db } = deps.database;
    const serviceDeps = { db, bus: deps.bus };

    // ---------------------------------------------------------------- authors

    app.get(
      '/authors',
      {
        schema: {
          tags: ['authors'],
          summary:
            'Authors who wrote comments (scope=items) or personal messages (scope=chats) the caller sees',
          querystring: authorListQuery,
          response: { 200: beforePageWireSchema(authorListEntryWireSchema) },
        },
      },
      async (req) => {
        const { scope, q, label_id, blocked, object_id, space_id, before, limit } = req.query;
        const { actor } = req;
        authorizeAuthorList(actor, scope);
        const page = await findAuthors(db, await contentScopes(db, actor), {
          content: scope,
          // issues/authors: whom the caller's visible tasks are about (modules/issues scope).
          ...(scope === 'issues' ? { issues: await issueScope(db, actor) } : {}),
          q,
          labelId: label_id,
          blocked: blocked === undefined ? undefined : blocked === '1',
          objectId: object_id,
          spaceId: space_id,
          before,
          limit,
        });
        return { items: page.rows.map(presentAuthorListEntry), next_before: page.nextBefore };
      },
    );

    app.get(
      '/authors/:id',
      {
        schema: {
          tags: ['authors'],
          summary: 'The author page: the author with labels, and what they wrote that the caller sees',
          params: idParams,
          response: { 200: authorPageWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const { author, scopes } = await getVisibleAuthor(db, actor, req.params.id);
        const [labelIds, stats] = await Promise.all([
          labelIdsOf(db, [author.id]),
          getAuthorStats(db, author, scopes),
        ]);
        return {
          author: presentSpaceAuthor(author, labelIds.get(author.id) ?? []),
          stats: presentAuthorStats(stats),
        };
      },
    );

    // What the author wrote that the caller sees: comments (items) and chats, a page at a time.
    const authorContent = <R extends { tagIds: number[]; provider: string }, S extends z.ZodType>(
      content: 'items' | 'chats',
      summary: string,
      find: (...args: Parameters<typeof findAuthorItems>) => Promise<Page<R>>,
      row: S,
      present: (row: R, extras: ContentExtras) => z.output<S>,
    ) =>
      app.get(
        `/authors/:id/${content}`,
        {
          schema: {
            tags: ['authors'],
            summary,
            params: idParams,
            querystring: pageQuery,
            response: { 200: beforePageWireSchema(row) },
          },
        },
        async (req) => {
          const { author, scopes } = await getVisibleAuthor(db, req.actor, req.params.id);
          assertContentAccess(scopes[content], author, content);
          const [page, labelIds] = await Promise.all([
            find(db, author, scopes[content], req.query),
            labelIdsOf(db, [author.id]),
          ]);
          const presented = presentSpaceAuthor(author, labelIds.get(author.id) ?? []);
          return {
            items: page.rows.map((r) =>
              present(r, { author: presented, tags: r.tagIds, provider: r.provider }),
            ),
            next_before: page.nextBefore,
          };
        },
      );
    authorContent(
      'items',
      "The author's comments the caller sees, newest first",
      findAuthorItems,
      itemWireSchema,
      (r, extra) => presentItem(r.item, extra),
    );
    authorContent(
      'chats',
      "The author's chats the caller sees, latest message first",
      findAuthorChats,
      chatWireSchema,
      (r, extra) => presentChat(r.chat, extra),
    );

    app.put(
      '/authors/:id/labels',
      {
        schema: {
          tags: ['authors'],
          summary: "Replace the author's labels (labels of the author's space)",
          params: idParams,
          body: authorLabelsBody,
          response: { 200: z.object({ author: authorWireSchema }) },
        },
      },
      async (req) => {
        const { actor } = req;
        const { author } = await getVisibleAuthor(db, actor, req.params.id);
        authorizeLabelling(actor, author);
        const labelIds = await labelsService.setAuthorLabels(
          serviceDeps,
          author,
          req.body.label_ids,
          actor.userId,
        );
        return { author: presentSpaceAuthor(author, labelIds) };
      },
    );

    // ---------------------------------------------------------------- labels (settings)

    app.get(
      '/labels',
      {
        schema: {
          tags: ['settings'],
          summary: "Author labels of the caller's spaces (or of one of them)",
          querystring: spaceQuery,
          response: { 200: listWireSchema(labelWireSchema) },
        },
      },
      async (req) => {
        const { actor } = req;
        const rows = await labelsService.findLabels(db, listSpaceIds(actor, req.query.space_id));
        return { items: rows.map(presentLabel) };
      },
    );

    app.get(
      '/labels/:id',
      { schema: { tags: ['settings'], params: idParams, response: { 200: labelWireSchema } } },
      async (req) => {
        const { actor } = req;
        return presentLabel(assertVisible(actor, await labelsService.getLabel(db, req.params.id)));
      },
    );

    app.get(
      '/labels/:id/authors',
      {
        schema: {
          tags: ['settings'],
          summary: 'Authors with this label that the caller sees, newest first',
          params: idParams,
          querystring: labelAuthorsQuery,
          response: { 200: beforePageWireSchema(authorListEntryWireSchema) },
        },
      },
      async (req) => {
        const { actor } = req;
        const label = assertVisible(actor, await labelsService.getLabel(db, req.params.id));
        authorize(actor, 'authors.view', label.spaceId);
        const page = await findAuthors(db, await contentScopes(db, actor), {
          content: 'any',
          labelId: label.id,
          spaceId: label.spaceId,
          q: req.query.q,
          before: req.query.before,
          limit: req.query.limit,
        });
        return { items: page.rows.map(presentAuthorListEntry), next_before: page.nextBefore };
      },
    );

    registerManagedKind(app, {
      path: '/labels',
      ...manageableBy(LABELS_ABILITY, ['settings'], (id) => labelsService.getLabel(db, id)),
      record: labelWireSchema,
      present: presentLabel,
      create: {
        summary: 'Create an author label',
        body: createLabelBody,
        run: (body, actor) =>
          labelsService.createLabel(serviceDeps, {
            spaceId: body.space_id,
            name: body.name,
            color: body.color,
            performedBy: actor.userId,
            by: actor,
          }),
      },
      update: {
        body: updateLabelBody,
        run: (label, body, actor) => labelsService.updateLabel(serviceDeps, label, body, actor.userId, actor),
      },
      remove: {
        summary: 'Delete an author label (it leaves every author it was on)',
        run: (label, actor) => labelsService.deleteLabel(serviceDeps, label, actor.userId, actor),
      },
    });
  });
}

import type { FastifyInstance } from 'fastify';
import { type Authenticate, signedInScope } from '../../http/auth';
import type { AppDeps } from '../deps';
import { presentChat, presentItem } from '../inbox/presenter';
import { issueScope } from '../issues/policy';
import { authorize } from '../spaces/actor';
import { assertManageable, assertVisible, listSpaceIds } from '../tags/policy';
import * as labelsService from './labels';
import {
  assertContentAccess,
  authorizeAuthorList,
  authorizeLabelling,
  contentScopes,
  getVisibleAuthor,
} from './policy';
import { presentAuthorListEntry, presentAuthorStats, presentLabel, presentSpaceAuthor } from './presenter';
import { findAuthorChats, findAuthorItems, findAuthors, getAuthorStats, labelIdsOf } from './queries';
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
const OK = { message: 'ok' } as const;

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

    app.get(
      '/authors/:id/items',
      {
        schema: {
          tags: ['authors'],
          summary: "The author's comments the caller sees, newest first",
          params: idParams,
          querystring: pageQuery,
        },
      },
      async (req) => {
        const { actor } = req;
        const { author, scopes } = await getVisibleAuthor(db, actor, req.params.id);
        assertContentAccess(scopes.items, author, 'items');
        const [page, labelIds] = await Promise.all([
          findAuthorItems(db, author, scopes.items, req.query),
          labelIdsOf(db, [author.id]),
        ]);
        const presented = presentSpaceAuthor(author, labelIds.get(author.id) ?? []);
        return {
          items: page.rows.map((r) =>
            presentItem(r.item, { author: presented, tags: r.tagIds, provider: r.provider }),
          ),
          next_before: page.nextBefore,
        };
      },
    );

    app.get(
      '/authors/:id/chats',
      {
        schema: {
          tags: ['authors'],
          summary: "The author's chats the caller sees, latest message first",
          params: idParams,
          querystring: pageQuery,
        },
      },
      async (req) => {
        const { actor } = req;
        const { author, scopes } = await getVisibleAuthor(db, actor, req.params.id);
        assertContentAccess(scopes.chats, author, 'chats');
        const [page, labelIds] = await Promise.all([
          findAuthorChats(db, author, scopes.chats, req.query),
          labelIdsOf(db, [author.id]),
        ]);
        const presented = presentSpaceAuthor(author, labelIds.get(author.id) ?? []);
        return {
          items: page.rows.map((r) =>
            presentChat(r.chat, { author: presented, tags: r.tagIds, provider: r.provider }),
          ),
          next_before: page.nextBefore,
        };
      },
    );

    app.put(
      '/authors/:id/labels',
      {
        schema: {
          tags: ['authors'],
          summary: "Replace the author's labels (labels of the author's space)",
          params: idParams,
          body: authorLabelsBody,
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
        },
      },
      async (req) => {
        const { actor } = req;
        const rows = await labelsService.findLabels(db, listSpaceIds(actor, req.query.space_id));
        return { items: rows.map(presentLabel) };
      },
    );

    app.get('/labels/:id', { schema: { tags: ['settings'], params: idParams } }, async (req) => {
      const { actor } = req;
      return presentLabel(assertVisible(actor, await labelsService.getLabel(db, req.params.id)));
    });

    app.get(
      '/labels/:id/authors',
      {
        schema: {
          tags: ['settings'],
          summary: 'Authors with this label that the caller sees, newest first',
          params: idParams,
          querystring: labelAuthorsQuery,
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

    app.post(
      '/labels',
      {
        schema: {
          tags: ['settings'],
          summary: 'Create an author label',
          body: createLabelBody,
        },
      },
      async (req) => {
        const { actor } = req;
        authorize(actor, LABELS_ABILITY, req.body.space_id);
        const row = await labelsService.createLabel(serviceDeps, {
          spaceId: req.body.space_id,
          name: req.body.name,
          color: req.body.color,
          performedBy: actor.userId,
          by: actor,
        });
        return presentLabel(row);
      },
    );

    app.put(
      '/labels/:id',
      {
        schema: { tags: ['settings'], params: idParams, body: updateLabelBody },
      },
      async (req) => {
        const { actor } = req;
        const label = assertManageable(
          actor,
          LABELS_ABILITY,
          await labelsService.getLabel(db, req.params.id),
        );
        return presentLabel(
          await labelsService.updateLabel(serviceDeps, label, req.body, actor.userId, actor),
        );
      },
    );

    app.delete(
      '/labels/:id',
      {
        schema: {
          tags: ['settings'],
          summary: 'Delete an author label (it leaves every author it was on)',
          params: idParams,
        },
      },
      async (req) => {
        const { actor } = req;
        const label = assertManageable(
          actor,
          LABELS_ABILITY,
          await labelsService.getLabel(db, req.params.id),
        );
        await labelsService.deleteLabel(serviceDeps, label, actor.userId, actor);
        return OK;
      },
    );
  });
}

import type { FastifyInstance } from 'fastify';
import { type Authenticate, signedInScope } from '../../http/auth';
import type { AppDeps } from '../deps';
import { authorize } from '../spaces/actor';
import { assertManageable, assertVisible, listSpaceIds, TAGS_ABILITY } from './policy';
import { presentTag, presentTagGroup } from './presenter';
import {
  createTagBody,
  createTagGroupBody,
  idParams,
  spaceQuery,
  updateTagBody,
  updateTagGroupBody,
} from './schemas';
import * as tagsService from './service';

const TAG = ['settings'];
const OK = { message: 'ok' } as const;

/**
 * Settings → tags (new, {id}, {id}/children) and tag groups (docs/product/screens-and-routes.md). The read-only list GET /v1/tags
 * lives in modules/spaces (every member reads it); here are one tag, its children, and the changes.
 */
export async function registerTagsModule(root: FastifyInstance, deps: AppDeps, authenticate: Authenticate) {
  await signedInScope(root, authenticate, async (app) => {
    const { db } = deps.database;
    const serviceDeps = { db, bus: deps.bus };

    // ---------------------------------------------------------------- tags

    app.get(
      '/tags/:id',
      {
        schema: { tags: TAG, summary: 'One tag with its direct children', params: idParams },
      },
      async (req) => {
        const { actor } = req;
        const tag = assertVisible(actor, await tagsService.getTag(db, req.params.id));
        const children = await tagsService.findChildren(db, tag);
        return { ...presentTag(tag), children: children.map(presentTag) };
      },
    );

    app.get(
      '/tags/:id/children',
      {
        schema: { tags: TAG, summary: 'Direct children of a tag, by name', params: idParams },
      },
      async (req) => {
        const { actor } = req;
        const tag = assertVisible(actor, await tagsService.getTag(db, req.params.id));
        return { items: (await tagsService.findChildren(db, tag)).map(presentTag) };
      },
    );

    app.post(
      '/tags',
      {
        schema: {
          tags: TAG,
          summary: 'Create a tag (name unique among its siblings)',
          body: createTagBody,
        },
      },
      async (req) => {
        const { actor } = req;
        authorize(actor, TAGS_ABILITY, req.body.space_id);
        const row = await tagsService.createTag(serviceDeps, {
          spaceId: req.body.space_id,
          name: req.body.name,
          color: req.body.color,
          parentId: req.body.parent_id,
          groupId: req.body.group_id,
          companyId: req.body.company_id,
          performedBy: actor.userId,
          by: actor,
        });
        return presentTag(row);
      },
    );

    app.put(
      '/tags/:id',
      {
        schema: {
          tags: TAG,
          summary: 'Rename, recolour, move (no cycles) or regroup a tag',
          params: idParams,
          body: updateTagBody,
        },
      },
      async (req) => {
        const { actor } = req;
        const tag = assertManageable(actor, TAGS_ABILITY, await tagsService.getTag(db, req.params.id));
        const row = await tagsService.updateTag(
          serviceDeps,
          tag,
          {
            name: req.body.name,
            color: req.body.color,
            parentId: req.body.parent_id,
            groupId: req.body.group_id,
            companyId: req.body.company_id,
          },
          actor.userId,
          actor,
        );
        return presentTag(row);
      },
    );

    app.delete(
      '/tags/:id',
      {
        schema: {
          tags: TAG,
          summary: 'Delete a tag: children move up to its parent; it leaves every comment and chat',
          params: idParams,
        },
      },
      async (req) => {
        const { actor } = req;
        const tag = assertManageable(actor, TAGS_ABILITY, await tagsService.getTag(db, req.params.id));
        const { moved } = await tagsService.deleteTag(serviceDeps, tag, actor.userId, actor);
        return { ...OK, moved_ids: moved };
      },
    );

    // ---------------------------------------------------------------- tag groups

    app.get(
      '/tag_groups',
      {
        schema: {
          tags: TAG,
          summary: "Tag groups of the caller's spaces (or of one of them)",
          querystring: spaceQuery,
        },
      },
      async (req) => {
        const { actor } = req;
        const rows = await tagsService.findTagGroups(db, listSpaceIds(actor, req.query.space_id));
        return { items: rows.map(presentTagGroup) };
      },
    );

    app.get('/tag_groups/:id', { schema: { tags: TAG, params: idParams } }, async (req) => {
      const { actor } = req;
      return presentTagGroup(assertVisible(actor, await tagsService.getTagGroup(db, req.params.id)));
    });

    app.post(
      '/tag_groups',
      {
        schema: { tags: TAG, summary: 'Create a tag group', body: createTagGroupBody },
      },
      async (req) => {
        const { actor } = req;
        authorize(actor, TAGS_ABILITY, req.body.space_id);
        const row = await tagsService.createTagGroup(serviceDeps, {
          spaceId: req.body.space_id,
          name: req.body.name,
          performedBy: actor.userId,
          by: actor,
        });
        return presentTagGroup(row);
      },
    );

    app.put(
      '/tag_groups/:id',
      {
        schema: { tags: TAG, params: idParams, body: updateTagGroupBody },
      },
      async (req) => {
        const { actor } = req;
        const group = assertManageable(actor, TAGS_ABILITY, await tagsService.getTagGroup(db, req.params.id));
        return presentTagGroup(
          await tagsService.updateTagGroup(serviceDeps, group, req.body, actor.userId, actor),
        );
      },
    );

    app.delete(
      '/tag_groups/:id',
      {
        schema: {
          tags: TAG,
          summary: 'Delete a tag group (its tags stay, ungrouped)',
          params: idParams,
        },
      },
      async (req) => {
        const { actor } = req;
        const group = assertManageable(actor, TAGS_ABILITY, await tagsService.getTagGroup(db, req.params.id));
        await tagsService.deleteTagGroup(serviceDeps, group, actor.userId, actor);
        return OK;
      },
    );
  });
}

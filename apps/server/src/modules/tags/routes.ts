import {
  listWireSchema,
  tagDeletedWireSchema,
  tagGroupWireSchema,
  tagWireSchema,
  tagWithChildrenWireSchema,
} from '@otklik/shared';
import type { FastifyInstance } from 'fastify';
import { type Authenticate, signedInScope } from '../../http/auth';
import { registerManagedKind } from '../../http/managed-routes';
import type { AppDeps } from '../deps';
import { assertVisible, listSpaceIds, manageableBy, TAGS_ABILITY } from './policy';
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
    const manage = <Row extends { spaceId: number }>(find: (id: number) => Promise<Row | undefined>) =>
      manageableBy(TAGS_ABILITY, TAG, find);

    // ---------------------------------------------------------------- tags

    app.get(
      '/tags/:id',
      {
        schema: {
          tags: TAG,
          summary: 'One tag with its direct children',
          params: idParams,
          response: { 200: tagWithChildrenWireSchema },
        },
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
        schema: {
          tags: TAG,
          summary: 'Direct children of a tag, by name',
          params: idParams,
          response: { 200: listWireSchema(tagWireSchema) },
        },
      },
      async (req) => {
        const { actor } = req;
        const tag = assertVisible(actor, await tagsService.getTag(db, req.params.id));
        return { items: (await tagsService.findChildren(db, tag)).map(presentTag) };
      },
    );

    registerManagedKind(app, {
      path: '/tags',
      ...manage((id) => tagsService.getTag(db, id)),
      record: tagWireSchema,
      present: presentTag,
      create: {
        summary: 'Create a tag (name unique among its siblings)',
        body: createTagBody,
        run: (body, actor) =>
          tagsService.createTag(serviceDeps, {
            spaceId: body.space_id,
            name: body.name,
            color: body.color,
            parentId: body.parent_id,
            groupId: body.group_id,
            companyId: body.company_id,
            performedBy: actor.userId,
            by: actor,
          }),
      },
      update: {
        summary: 'Rename, recolour, move (no cycles) or regroup a tag',
        body: updateTagBody,
        run: (tag, body, actor) =>
          tagsService.updateTag(
            serviceDeps,
            tag,
            {
              name: body.name,
              color: body.color,
              parentId: body.parent_id,
              groupId: body.group_id,
              companyId: body.company_id,
            },
            actor.userId,
            actor,
          ),
      },
      remove: {
        summary: 'Delete a tag: children move up to its parent; it leaves every comment and chat',
        run: (tag, actor) => tagsService.deleteTag(serviceDeps, tag, actor.userId, actor),
        answer: ({ moved }) => ({ ...OK, moved_ids: moved }),
        answerSchema: tagDeletedWireSchema,
      },
    });

    // ---------------------------------------------------------------- tag groups

    app.get(
      '/tag_groups',
      {
        schema: {
          tags: TAG,
          summary: "Tag groups of the caller's spaces (or of one of them)",
          querystring: spaceQuery,
          response: { 200: listWireSchema(tagGroupWireSchema) },
        },
      },
      async (req) => {
        const { actor } = req;
        const rows = await tagsService.findTagGroups(db, listSpaceIds(actor, req.query.space_id));
        return { items: rows.map(presentTagGroup) };
      },
    );

    app.get(
      '/tag_groups/:id',
      { schema: { tags: TAG, params: idParams, response: { 200: tagGroupWireSchema } } },
      async (req) => {
        const { actor } = req;
        return presentTagGroup(assertVisible(actor, await tagsService.getTagGroup(db, req.params.id)));
      },
    );

    registerManagedKind(app, {
      path: '/tag_groups',
      ...manage((id) => tagsService.getTagGroup(db, id)),
      record: tagGroupWireSchema,
      present: presentTagGroup,
      create: {
        summary: 'Create a tag group',
        body: createTagGroupBody,
        run: (body, actor) =>
          tagsService.createTagGroup(serviceDeps, {
            spaceId: body.space_id,
            name: body.name,
            performedBy: actor.userId,
            by: actor,
          }),
      },
      update: {
        body: updateTagGroupBody,
        run: (group, body, actor) =>
          tagsService.updateTagGroup(serviceDeps, group, body, actor.userId, actor),
      },
      remove: {
        summary: 'Delete a tag group (its tags stay, ungrouped)',
        run: (group, actor) => tagsService.deleteTagGroup(serviceDeps, group, actor.userId, actor),
      },
    });
  });
}

import {
  badgeCountsWireSchema,
  companyWireSchema,
  configWireSchema,
  listWireSchema,
  objectsWireSchema,
  PROVIDER_IDS,
  recentEmojiAnswerWireSchema,
  savedFilterNameSchema,
  savedFiltersWireSchema,
  tagGroupWireSchema,
  tagWireSchema,
  userGroupWireSchema,
} from '@otklik/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { type Authenticate, signedInScope } from '../../http/auth';
import { usableAgentRefs } from '../ai/service';
import { membershipRoles } from '../auth/service';
import type { AppDeps } from '../deps';
import { companySettingsSchema } from '../organisation/schemas';
import { listStatuses } from '../statuses/service';
import { presentUser } from '../users/presenter';
import { CONFIG_COUNTERS, type CounterName, readCounts } from './counts';
import * as data from './data';
import { registerSpaceManagementRoutes } from './manage-routes';
import { presentSpace, presentUserStatus } from './presenter';

const TAG = ['data'];

export async function registerSpacesModule(root: FastifyInstance, deps: AppDeps, authenticate: Authenticate) {
  await registerSpaceManagementRoutes(root, deps, authenticate);
  await signedInScope(root, authenticate, async (app) => {
    const { db } = deps.database;

    app.get(
      '/config',
      {
        schema: {
          tags: TAG,
          summary: 'Everything the app shell needs',
          querystring: z.object({ ts: z.string().optional() }),
          response: { 200: configWireSchema },
        },
      },
      async (req) => {
        const user = req.auth!.user;
        const { actor } = req;
        const spaceIds = actor.rows.map((r) => r.space.id);
        const [statuses, filters, emoji, counts, roles] = await Promise.all([
          listStatuses(db, spaceIds),
          data.listFilters(db, user.id),
          data.listEmoji(db, user.id),
          readCounts(db, actor, CONFIG_COUNTERS),
          membershipRoles(db, user.id),
        ]);
        const otpRequired = !user.otpEnabled && actor.memberships.some((m) => m.space.settings.otp_required);
        return {
          user: presentUser(user, roles),
          spaces: actor.rows.map(presentSpace),
          user_statuses: statuses.map(presentUserStatus),
          filters,
          emoji,
          ...counts,
          otp_required: otpRequired,
        };
      },
    );

    app.get(
      '/counts',
      {
        schema: {
          tags: TAG,
          querystring: z.object({ monitoring: z.coerce.number().optional() }),
          response: { 200: badgeCountsWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const names: CounterName[] = req.query.monitoring
          ? ['monitoring_count']
          : ['items_count', 'chats_count', 'issues_count', 'issues_expired_count'];
        return readCounts(db, actor, names);
      },
    );

    app.get(
      '/objects',
      {
        schema: {
          tags: TAG,
          querystring: z.object({ tags: z.enum(['true', 'false', '1', '0']).optional() }),
          response: { 200: objectsWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const withTags = req.query.tags === 'true' || req.query.tags === '1';
        const [items, stored] = await Promise.all([
          data.findObjects(db, actor),
          data.findCompanies(db, actor),
        ]);
        // Stored company settings as they act (the shape every company answer shows; defaults for gaps).
        const companies = stored.map((c) => ({ ...c, settings: companySettingsSchema.parse(c.settings) }));
        if (!withTags) return { items, companies };
        return {
          items,
          companies,
          ...(await data.findTagsAndFriends(db, actor)),
          ai_agents: await usableAgentRefs(db, actor),
        };
      },
    );

    app.get(
      '/companies',
      { schema: { tags: TAG, response: { 200: listWireSchema(companyWireSchema) } } },
      async (req) => {
        const { actor } = req;
        return { items: await data.findCompanies(db, actor) };
      },
    );

    app.get(
      '/usergroups',
      { schema: { tags: TAG, response: { 200: listWireSchema(userGroupWireSchema) } } },
      async (req) => {
        const { actor } = req;
        const groups = await data.findUserGroups(db, actor);
        return {
          items: groups.map((g) => ({
            id: g.id,
            name: g.name,
            space_id: g.spaceId,
            company_ids: g.companyIds,
            object_ids: g.objectIds,
          })),
        };
      },
    );

    app.get(
      '/tags',
      {
        schema: {
          tags: TAG,
          response: {
            200: z.object({ items: z.array(tagWireSchema), tag_groups: z.array(tagGroupWireSchema) }),
          },
        },
      },
      async (req) => {
        const { actor } = req;
        const { tags, tag_groups } = await data.findTagsAndFriends(db, actor);
        return { items: tags, tag_groups };
      },
    );

    const filterBody = savedFilterNameSchema.extend({
      query: z.record(z.string(), z.unknown()).default({}),
      // docs/product/screens-and-routes.md: saved filters are keyed by route name; stats filters carry no route.
      route: z.enum(['chats', 'issues', 'monitoring-page', 'items', 'stats']).nullish(),
    });

    app.post(
      '/me/filters',
      { schema: { tags: ['me'], body: filterBody, response: { 200: savedFiltersWireSchema } } },
      async (req) => {
        const route = req.body.route === 'stats' ? null : req.body.route;
        return { items: await data.createFilter(db, req.auth!.user.id, { ...req.body, route }) };
      },
    );

    app.delete(
      '/me/filters/:id',
      {
        schema: {
          tags: ['me'],
          params: z.object({ id: z.coerce.number().int() }),
          response: { 200: savedFiltersWireSchema },
        },
      },
      async (req) => ({ items: await data.deleteFilter(db, req.auth!.user.id, req.params.id) }),
    );

    app.put(
      '/me/filters/:id',
      {
        schema: {
          tags: ['me'],
          summary: 'Rename a saved filter',
          params: z.object({ id: z.coerce.number().int() }),
          body: savedFilterNameSchema,
          response: { 200: savedFiltersWireSchema },
        },
      },
      async (req) => ({
        items: await data.renameFilter(db, req.auth!.user.id, req.params.id, req.body.name),
      }),
    );

    app.put(
      '/me/emoji',
      {
        schema: {
          tags: ['me'],
          summary: 'Remember recently used emoji per provider (keeps the 18 most recent)',
          body: z.partialRecord(z.enum(PROVIDER_IDS), z.array(z.string().min(1).max(32)).max(100)),
          response: { 200: recentEmojiAnswerWireSchema },
        },
      },
      async (req) => ({ emoji: await data.rememberEmoji(db, req.auth!.user.id, req.body) }),
    );
  });
}

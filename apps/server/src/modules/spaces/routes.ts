import { PROVIDER_IDS, savedFilterNameSchema } from '@otklik/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app';
import { type AuthContext, requireAuth } from '../../http/auth';
import { usableAgentRefs } from '../ai/service';
import { membershipRoles } from '../auth/service';
import { listStatuses } from '../statuses/service';
import { presentUser } from '../users/presenter';
import { loadActor } from './actor';
import { CONFIG_COUNTERS, type CounterName, readCounts } from './counts';
import * as data from './data';
import { registerSpaceManagementRoutes } from './manage-routes';
import { presentSpace, presentUserStatus } from './presenter';

const bearer = [{ bearer: [] }];
const TAG = ['data'];

export async function registerSpacesModule(
  root: FastifyInstance,
  deps: AppDeps,
  authenticate: (token: string) => Promise<AuthContext>,
) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = deps.database;
  const authenticated = requireAuth(authenticate);
  await registerSpaceManagementRoutes(root, deps, authenticate);

  app.get(
    '/config',
    {
      preHandler: authenticated,
      schema: {
        tags: TAG,
        security: bearer,
        summary: 'Everything the app shell needs',
        querystring: z.object({ ts: z.string().optional() }),
      },
    },
    async (req) => {
      const user = req.auth!.user;
      const actor = await loadActor(db, user);
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
      preHandler: authenticated,
      schema: {
        tags: TAG,
        security: bearer,
        querystring: z.object({ monitoring: z.coerce.number().optional() }),
      },
    },
    async (req) => {
      const actor = await loadActor(db, req.auth!.user);
      const names: CounterName[] = req.query.monitoring
        ? ['monitoring_count']
        : ['items_count', 'chats_count', 'issues_count', 'issues_expired_count'];
      return readCounts(db, actor, names);
    },
  );

  app.get(
    '/objects',
    {
      preHandler: authenticated,
      schema: {
        tags: TAG,
        security: bearer,
        querystring: z.object({ tags: z.enum(['true', 'false', '1', '0']).optional() }),
      },
    },
    async (req) => {
      const actor = await loadActor(db, req.auth!.user);
      const withTags = req.query.tags === 'true' || req.query.tags === '1';
      const [items, companies] = await Promise.all([
        data.findObjects(db, actor),
        data.findCompanies(db, actor),
      ]);
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
    { preHandler: authenticated, schema: { tags: TAG, security: bearer } },
    async (req) => {
      const actor = await loadActor(db, req.auth!.user);
      return { items: await data.findCompanies(db, actor) };
    },
  );

  app.get(
    '/usergroups',
    { preHandler: authenticated, schema: { tags: TAG, security: bearer } },
    async (req) => {
      const actor = await loadActor(db, req.auth!.user);
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

  app.get('/tags', { preHandler: authenticated, schema: { tags: TAG, security: bearer } }, async (req) => {
    const actor = await loadActor(db, req.auth!.user);
    const { tags, tag_groups } = await data.findTagsAndFriends(db, actor);
    return { items: tags, tag_groups };
  });

  const filterBody = savedFilterNameSchema.extend({
    query: z.record(z.string(), z.unknown()).default({}),
    // docs/product/screens-and-routes.md: saved filters are keyed by route name; stats filters carry no route.
    route: z.enum(['chats', 'issues', 'monitoring-page', 'items', 'stats']).nullish(),
  });

  app.post(
    '/me/filters',
    { preHandler: authenticated, schema: { tags: ['me'], security: bearer, body: filterBody } },
    async (req) => {
      const route = req.body.route === 'stats' ? null : req.body.route;
      return { items: await data.createFilter(db, req.auth!.user.id, { ...req.body, route }) };
    },
  );

  app.delete(
    '/me/filters/:id',
    {
      preHandler: authenticated,
      schema: { tags: ['me'], security: bearer, params: z.object({ id: z.coerce.number().int() }) },
    },
    async (req) => ({ items: await data.deleteFilter(db, req.auth!.user.id, req.params.id) }),
  );

  app.put(
    '/me/filters/:id',
    {
      preHandler: authenticated,
      schema: {
        tags: ['me'],
        security: bearer,
        summary: 'Rename a saved filter',
        params: z.object({ id: z.coerce.number().int() }),
        body: savedFilterNameSchema,
      },
    },
    async (req) => ({
      items: await data.renameFilter(db, req.auth!.user.id, req.params.id, req.body.name),
    }),
  );

  app.put(
    '/me/emoji',
    {
      preHandler: authenticated,
      schema: {
        tags: ['me'],
        security: bearer,
        summary: 'Remember recently used emoji per provider (keeps the 18 most recent)',
        body: z.partialRecord(z.enum(PROVIDER_IDS), z.array(z.string().min(1).max(32)).max(100)),
      },
    },
    async (req) => ({ emoji: await data.rememberEmoji(db, req.auth!.user.id, req.body) }),
  );
}

import { aiSuggestBody, createAiAgentBody, updateAiAgentBody } from '@otklik/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../http/app';
import { type AuthContext, requireAuth } from '../../http/auth';
import { notFound } from '../../http/errors';
import { getScopedChat, getScopedItem } from '../inbox/scope';
import { authorize, loadActor, spaceIdsWhere } from '../spaces/actor';
import { listSpaceIds } from '../tags/policy';
import { assertManageable, assertUsable, MANAGE } from './policy';
import { presentAgent } from './presenter';
import * as service from './service';
import { buildPrompt, chatConversation, complete, itemConversation, spaceTemplates } from './suggest';

const bearer = [{ bearer: [] }];
const TAG = ['settings'];
const idParams = z.object({ id: z.coerce.number().int().positive() });
const spaceQuery = z.object({ space_id: z.coerce.number().int().positive().optional() });

/** Settings → AI agents, and suggestions in the composer (issue 21). */
export async function registerAiModule(
  root: FastifyInstance,
  deps: AppDeps,
  authenticate: (token: string) => Promise<AuthContext>,
) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const authenticated = requireAuth(authenticate);
  const { db } = deps.database;

  app.get(
    '/ai/agents',
    {
      preHandler: authenticated,
      schema: { tags: TAG, security: bearer, summary: 'AI agents of the spaces', querystring: spaceQuery },
    },
    async (req) => {
      const actor = await loadActor(db, req.auth!.user);
      const asked = listSpaceIds(actor, req.query.space_id);
      if (req.query.space_id !== undefined) authorize(actor, MANAGE, req.query.space_id);
      const manage = new Set(spaceIdsWhere(actor, MANAGE));
      const spaceIds = asked.filter((id) => manage.has(id));
      return { items: (await service.listAgents(db, spaceIds)).map(presentAgent), can_manage: spaceIds };
    },
  );

  app.get(
    '/ai/agents/:id',
    {
      preHandler: authenticated,
      schema: {
        tags: TAG,
        security: bearer,
        summary: 'One AI agent (the key only as set or not)',
        params: idParams,
      },
    },
    async (req) => {
      const actor = await loadActor(db, req.auth!.user);
      return presentAgent(assertManageable(actor, await service.getAgent(db, req.params.id)));
    },
  );

  app.post(
    '/ai/agents',
    {
      preHandler: authenticated,
      schema: { tags: TAG, security: bearer, summary: 'Create an AI agent', body: createAiAgentBody },
    },
    async (req) => {
      const actor = await loadActor(db, req.auth!.user);
      const { space_id, ...input } = req.body;
      authorize(actor, MANAGE, space_id);
      return presentAgent(await service.createAgent(db, deps.sealer, space_id, input, actor));
    },
  );

  app.put(
    '/ai/agents/:id',
    {
      preHandler: authenticated,
      schema: {
        tags: TAG,
        security: bearer,
        summary: 'Change an AI agent; api_key absent keeps the key, empty removes it',
        params: idParams,
        body: updateAiAgentBody,
      },
    },
    async (req) => {
      const actor = await loadActor(db, req.auth!.user);
      const row = assertManageable(actor, await service.getAgent(db, req.params.id));
      return presentAgent(await service.updateAgent(db, deps.sealer, row, req.body, actor));
    },
  );

  app.delete(
    '/ai/agents/:id',
    {
      preHandler: authenticated,
      schema: { tags: TAG, security: bearer, summary: 'Delete an AI agent', params: idParams },
    },
    async (req) => {
      const actor = await loadActor(db, req.auth!.user);
      const row = assertManageable(actor, await service.getAgent(db, req.params.id));
      await service.deleteAgent(db, row, actor);
      return { message: 'ok' as const };
    },
  );

  app.post(
    '/ai/suggest',
    {
      preHandler: authenticated,
      schema: {
        tags: ['inbox'],
        security: bearer,
        summary:
          'A suggestion for the composer (reply, shorten, rewrite tone, translate); never sent by itself',
        body: aiSuggestBody,
      },
    },
    async (req) => {
      const actor = await loadActor(db, req.auth!.user);
      const agent = assertUsable(actor, await service.getAgent(db, req.body.agent_id));
      let conversation: Awaited<ReturnType<typeof itemConversation>>;
      let spaceId: number;
      if (req.body.item_id !== undefined) {
        const item = await getScopedItem(db, actor, req.body.item_id, 'items.reply');
        spaceId = item.spaceId;
        conversation = await itemConversation(db, item);
      } else {
        const chat = await getScopedChat(db, actor, req.body.chat_id!, 'messages.reply');
        spaceId = chat.spaceId;
        conversation = await chatConversation(db, chat);
      }
      // The agent works only on its own space's conversations.
      if (spaceId !== agent.spaceId) throw notFound();
      const templates = await spaceTemplates(db, spaceId, actor.userId);
      const prompt = buildPrompt(agent, conversation, templates, req.body);
      return { text: await complete(agent, deps.sealer, prompt, deps.config.AI_TIMEOUT_MS) };
    },
  );
}

import {
  type AiSuggestBody,
  type AiTagsBody,
  type AiTagsResult,
  aiAgentsListWireSchema,
  aiAgentWireSchema,
  aiSuggestBody,
  aiSuggestResultWireSchema,
  aiTagsBody,
  aiTagsResultWireSchema,
  createAiAgentBody,
  type ReplyKind,
  updateAiAgentBody,
} from '@otklik/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { type Authenticate, signedInScope } from '../../http/auth';
import { requestLocale } from '../../http/locale';
import { registerManagedKind } from '../../http/managed-routes';
import { notFound } from '../../lib/errors';
import type { AppDeps } from '../deps';
import { getScopedChat, getScopedItem } from '../inbox/read/scope';
import { authorize, spaceIdsWhere } from '../spaces/actor';
import { listSpaceIds } from '../tags/policy';
import { assertManageable, assertUsable, MANAGE } from './policy';
import { presentAgent } from './presenter';
import * as service from './service';
import { relay } from './stream';
import {
  authorHistory,
  buildPrompt,
  callProvider,
  chatConversation,
  complete,
  itemConversation,
  replyLimit,
  spaceTemplates,
  systemMessage,
  transcript,
} from './suggest';
import { offeredTags, parseTagAnswer, tagTask } from './tags';

const TAG = ['settings'];
const spaceQuery = z.object({ space_id: z.coerce.number().int().positive().optional() });

/** Settings → AI agents, and suggestions in the composer (issue 21). */
export async function registerAiModule(root: FastifyInstance, deps: AppDeps, authenticate: Authenticate) {
  await signedInScope(root, authenticate, async (app) => {
    const { db } = deps.database;

    app.get(
      '/ai/agents',
      {
        schema: {
          tags: TAG,
          summary: 'AI agents of the spaces',
          querystring: spaceQuery,
          response: { 200: aiAgentsListWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const asked = listSpaceIds(actor, req.query.space_id);
        if (req.query.space_id !== undefined) authorize(actor, MANAGE, req.query.space_id);
        const manage = new Set(spaceIdsWhere(actor, MANAGE));
        const spaceIds = asked.filter((id) => manage.has(id));
        return { items: (await service.listAgents(db, spaceIds)).map(presentAgent), can_manage: spaceIds };
      },
    );

    registerManagedKind(app, {
      path: '/ai/agents',
      tags: TAG,
      read: { summary: 'One AI agent (the key only as set or not)' },
      authorizeCreate: (actor, spaceId) => authorize(actor, MANAGE, spaceId),
      manageable: async (actor, id) => assertManageable(actor, await service.getAgent(db, id)),
      record: aiAgentWireSchema,
      present: presentAgent,
      create: {
        summary: 'Create an AI agent',
        body: createAiAgentBody,
        run: ({ space_id, ...input }, actor) => service.createAgent(db, deps.sealer, space_id, input, actor),
      },
      update: {
        summary: 'Change an AI agent; api_key absent keeps the key, empty removes it',
        body: updateAiAgentBody,
        run: (row, body, actor) => service.updateAgent(db, deps.sealer, row, body, actor),
      },
      remove: {
        summary: 'Delete an AI agent',
        run: (row, actor) => service.deleteAgent(db, row, actor),
      },
    });

    /** The agent and the one conversation it may read; scoping and refusals happen here, before any call. */
    async function scoped(req: FastifyRequest<{ Body: AiTagsBody }>) {
      const { actor } = req;
      const agent = assertUsable(actor, await service.getAgent(db, req.body.agent_id));
      let conversation: Awaited<ReturnType<typeof itemConversation>>;
      let history: string[];
      let spaceId: number;
      let objectId: number;
      let kind: ReplyKind;
      if (req.body.item_id !== undefined) {
        const item = await getScopedItem(db, actor, req.body.item_id, 'items.reply');
        spaceId = item.spaceId;
        objectId = item.objectId;
        kind = 'comment';
        conversation = await itemConversation(db, item);
        history = await authorHistory(db, actor, item.spaceId, item.isOwn ? null : item.authorId, item.id);
      } else {
        const chat = await getScopedChat(db, actor, req.body.chat_id!, 'messages.reply');
        spaceId = chat.spaceId;
        objectId = chat.objectId;
        kind = 'message';
        conversation = await chatConversation(db, chat);
        history = await authorHistory(db, actor, chat.spaceId, chat.authorId, null);
      }
      // The agent works only on its own space's conversations.
      if (spaceId !== agent.spaceId) throw notFound();
      const templates = await spaceTemplates(db, spaceId, actor.userId);
      return { agent, conversation, history, templates, spaceId, objectId, kind };
    }

    /** The agent and the prompt for one suggestion. */
    async function prepare(req: FastifyRequest<{ Body: AiSuggestBody }>) {
      const { agent, conversation, history, templates, objectId, kind } = await scoped(req);
      const limit = await replyLimit(db, objectId, kind);
      const prompt = buildPrompt(
        agent,
        conversation,
        templates,
        req.body,
        { limit, locale: requestLocale(req) },
        // The author's history helps a reply; a rewrite, shortening or translation of a draft needs none.
        req.body.mode === 'reply' ? history : [],
      );
      return { agent, prompt };
    }

    app.post(
      '/ai/tags',
      {
        schema: {
          tags: ['inbox'],
          summary: 'Tags of the space the agent suggests for one conversation; nothing is tagged by itself',
          body: aiTagsBody,
          response: { 200: aiTagsResultWireSchema },
        },
      },
      async (req): Promise<AiTagsResult> => {
        const { agent, conversation, templates, spaceId, objectId } = await scoped(req);
        const offered = await offeredTags(db, spaceId, objectId);
        if (offered.length === 0) return { tag_ids: [] };
        const answer = await complete(
          agent,
          deps.sealer,
          [systemMessage(agent, templates), tagTask(transcript(conversation), offered)],
          deps.config.AI_TIMEOUT_MS,
        );
        return { tag_ids: parseTagAnswer(answer, offered) };
      },
    );

    app.post(
      '/ai/suggest',
      {
        schema: {
          tags: ['inbox'],
          summary:
            'A suggestion for the composer (reply, shorten, rewrite tone, translate, summarize); never sent by itself',
          body: aiSuggestBody,
          response: { 200: aiSuggestResultWireSchema },
        },
      },
      async (req) => {
        const { agent, prompt } = await prepare(req);
        return { text: await complete(agent, deps.sealer, prompt, deps.config.AI_TIMEOUT_MS) };
      },
    );

    app.post(
      '/ai/suggest/stream',
      {
        schema: {
          tags: ['inbox'],
          summary:
            'The same suggestion streamed as JSON lines ({delta} …, then {done, text} or {error}); closing the connection cancels it',
          body: aiSuggestBody,
        },
      },
      async (req, reply) => {
        const { agent, prompt } = await prepare(req);
        const cancelled = new AbortController();
        // The operator stopped (or the connection dropped) before the end: abort the provider's request too.
        reply.raw.on('close', () => {
          if (!reply.raw.writableFinished) cancelled.abort();
        });
        // Refusals before the first byte (key, rate limit, status) are ordinary JSON errors.
        const provider = await callProvider(agent, deps.sealer, prompt, {
          timeoutMs: deps.config.AI_TIMEOUT_MS,
          stream: true,
          signal: cancelled.signal,
        });
        const body = relay(provider, {
          locale: requestLocale(req),
          cancelled: cancelled.signal,
          log: deps.log,
        });
        return reply
          .type('application/x-ndjson; charset=utf-8')
          .header('cache-control', 'no-store')
          .header('x-accel-buffering', 'no')
          .send(body);
      },
    );
  });
}

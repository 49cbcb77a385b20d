import { z } from 'zod';

// AI assistant (issue 21): agents per space that suggest text in the composer through any
// OpenAI-compatible chat-completions endpoint (OpenAI, llama.cpp, Ollama, vLLM…). The key is stored
// sealed on the server and never returned: the API says only whether one is set. The operator always
// confirms; a suggestion is never sent by itself. Message keys live in messages.ts (ru/en).

export const AI_SUGGEST_MODES = ['reply', 'shorten', 'rewrite_tone', 'translate', 'summarize'] as const;
export type AiSuggestMode = (typeof AI_SUGGEST_MODES)[number];

export const AI_NAME_MAX = 120;
export const AI_INSTRUCTIONS_MAX = 8000;
export const AI_KNOWLEDGE_MAX = 20;
export const AI_SNIPPET_MAX = 4000;

const name = z
  .string({ error: 'ai.name.required' })
  .trim()
  .min(1, 'ai.name.required')
  .max(AI_NAME_MAX, 'field.tooLong');
const baseUrl = z
  .string({ error: 'ai.baseUrl.invalid' })
  .trim()
  .max(500, 'field.tooLong')
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'ai.baseUrl.invalid');
const model = z
  .string({ error: 'ai.model.required' })
  .trim()
  .min(1, 'ai.model.required')
  .max(200, 'field.tooLong');
const instructions = z.string().max(AI_INSTRUCTIONS_MAX, 'field.tooLong');
const knowledge = z
  .array(z.string().trim().min(1, 'field.invalid').max(AI_SNIPPET_MAX, 'field.tooLong'))
  .max(AI_KNOWLEDGE_MAX, 'ai.knowledge.tooMany');

export const aiAgentFields = z.object({
  name,
  base_url: baseUrl,
  model,
  instructions: instructions.default(''),
  knowledge: knowledge.default([]),
});

export const createAiAgentBody = aiAgentFields.extend({
  space_id: z.number().int().positive(),
  /** Empty or absent: no key (local servers need none). */
  api_key: z.string().max(1000, 'field.tooLong').optional(),
});

// No defaults here: a body that sets nothing is refused (400) like every update.
export const updateAiAgentBody = z.object({
  name: name.optional(),
  base_url: baseUrl.optional(),
  model: model.optional(),
  instructions: instructions.optional(),
  knowledge: knowledge.optional(),
  /** Absent: keep; empty string: remove; text: replace. */
  api_key: z.string().max(1000, 'field.tooLong').optional(),
});

export const aiSuggestBody = z
  .object({
    agent_id: z.number().int().positive(),
    item_id: z.number().int().positive().optional(),
    chat_id: z.number().int().positive().optional(),
    mode: z.enum(AI_SUGGEST_MODES),
    /** The composer's current text (shorten, rewrite, translate work on it). */
    text: z.string().max(20_000, 'field.tooLong').optional(),
    /** translate: the target language, e.g. "en"; rewrite_tone: the tone, e.g. "friendly". */
    target: z.string().trim().max(40, 'field.tooLong').optional(),
  })
  .refine((b) => (b.item_id === undefined) !== (b.chat_id === undefined), {
    message: 'ai.target.required',
    path: ['item_id'],
  });

export type AiSuggestBody = z.infer<typeof aiSuggestBody>;

/** An AI agent as Settings → AI agents reads it (the list, one agent, create and update). */
export const aiAgentWireSchema = z.object({
  id: z.number().int(),
  space_id: z.number().int(),
  name: z.string(),
  base_url: z.string(),
  model: z.string(),
  instructions: z.string(),
  knowledge: z.array(z.string()),
  /** Whether a key is stored; the key itself is never returned. */
  api_key_set: z.boolean(),
  updated_at: z.string(),
});
export type AiAgentDto = z.infer<typeof aiAgentWireSchema>;

/** GET /v1/ai/agents: the agents and the spaces where the caller manages them. */
export const aiAgentsListWireSchema = z.object({
  items: z.array(aiAgentWireSchema),
  can_manage: z.array(z.number().int()),
});
export type AiAgentsListWire = z.infer<typeof aiAgentsListWireSchema>;

/** The short form in GET /v1/objects (ai_agents): what the composer needs to offer suggestions. */
export interface AiAgentRef {
  id: number;
  space_id: number;
  name: string;
}

/** POST /v1/ai/suggest. */
export const aiSuggestResultWireSchema = z.object({ text: z.string() });
export type AiSuggestResult = z.infer<typeof aiSuggestResultWireSchema>;

/**
 * One line of POST /v1/ai/suggest/stream (JSON lines, `application/x-ndjson`): pieces of text as the
 * provider writes them, then either `done` with the whole text or `error` (the caller's language).
 */
export type AiStreamLine =
  | { delta: string }
  | { done: true; text: string }
  | { error: string; error_type: 'ai_provider' };

/** Modes that work on the operator's draft (the others read only the conversation). */
export const AI_DRAFT_MODES: readonly AiSuggestMode[] = ['shorten', 'rewrite_tone', 'translate'];

/** POST /v1/ai/tags: tags the agent suggests for one conversation, from its space's tags. */
export const aiTagsBody = z
  .object({
    agent_id: z.number().int().positive(),
    item_id: z.number().int().positive().optional(),
    chat_id: z.number().int().positive().optional(),
  })
  .refine((b) => (b.item_id === undefined) !== (b.chat_id === undefined), {
    message: 'ai.target.required',
    path: ['item_id'],
  });
export type AiTagsBody = z.infer<typeof aiTagsBody>;

/** POST /v1/ai/tags. */
export const aiTagsResultWireSchema = z.object({
  /** The space's tags the agent chose, in its order; never a tag of another space. */
  tag_ids: z.array(z.number().int()),
});
export type AiTagsResult = z.infer<typeof aiTagsResultWireSchema>;

/** At most this many tags go into the prompt (the most used first) and come back. */
export const AI_TAGS_OFFERED = 100;
export const AI_TAGS_SUGGESTED = 5;

import { and, eq } from 'drizzle-orm';
import { Agent, request } from 'undici';
import type { Db } from '../../db/client';
import { webhookEndpoints } from '../../db/schema';
import type { Sealer } from '../../lib/crypto';
import { guardedConnector } from '../../providers/media';
import { type MediaNetwork, systemNetwork } from '../../providers/public-network';
import { newMessageId, webhookHeaders } from '../webhooks/signing';

// A bot flow's webhook step (issue 17). The flow waits for the answer (it may give the text to send and
// fields to merge), so this is a call of the moment, not a queued delivery: up to BOT_WEBHOOK_ATTEMPTS
// tries with a short growing pause, on a network error, a timeout, 429 or 5xx; a 4xx is final. With an
// endpoint of settings/webhooks the call goes to its address signed with its secret (Standard Webhooks,
// the same webhook-id on every try, as retries of one message); a bare address is called unsigned.

export const BOT_WEBHOOK_ATTEMPTS = 3;
/** The pause before the 2nd and 3rd tries. */
export const BOT_WEBHOOK_BACKOFF_MS = [300, 1_200];
const TIMEOUT_MS = 5_000;
const ANSWER_MAX = 64_000;

export interface BotWebhookDeps {
  db: Db;
  sealer: Sealer;
  allowPrivate: boolean;
  network?: MediaNetwork;
  /** Tests shorten the pauses. */
  backoffMs?: number[];
}

export type BotWebhookOutcome =
  | { ok: true; attempts: number; answer: { text: string; fields: Record<string, string> } }
  | { ok: false; attempts: number; error: string };

/** The endpoint (enabled, of the bot's space) or the bare address; null when neither can be called. */
async function targetOf(
  deps: BotWebhookDeps,
  spaceId: number,
  step: { url?: string; webhook_id?: number | null },
): Promise<{ url: string; secret: string | null } | string> {
  if (step.webhook_id) {
    const [endpoint] = await deps.db
      .select({ url: webhookEndpoints.url, secret: webhookEndpoints.secretSealed })
      .from(webhookEndpoints)
      .where(
        and(
          eq(webhookEndpoints.id, step.webhook_id),
          eq(webhookEndpoints.spaceId, spaceId),
          eq(webhookEndpoints.isEnabled, true),
        ),
      );
    if (!endpoint) return 'The webhook is deleted or switched off';
    return { url: endpoint.url, secret: deps.sealer.open(endpoint.secret) };
  }
  if (!step.url) return 'No webhook address';
  return { url: step.url, secret: null };
}

function parseAnswer(body: string) {
  const out: { text: string; fields: Record<string, string> } = { text: '', fields: {} };
  let parsed: { text?: unknown; fields?: unknown } = {};
  try {
    parsed = body ? (JSON.parse(body) as typeof parsed) : {};
  } catch {
    return out; // a 2xx without JSON: the call is done, nothing to use
  }
  if (typeof parsed?.text === 'string') out.text = parsed.text.slice(0, 4000);
  if (parsed?.fields && typeof parsed.fields === 'object')
    for (const [k, v] of Object.entries(parsed.fields as Record<string, unknown>).slice(0, 20))
      if (typeof v === 'string') out.fields[k.slice(0, 40)] = v.slice(0, 500);
  return out;
}

export async function callBotWebhook(
  deps: BotWebhookDeps,
  spaceId: number,
  step: { url?: string; webhook_id?: number | null },
  payload: Record<string, unknown>,
): Promise<BotWebhookOutcome> {
  const target = await targetOf(deps, spaceId, step).catch(() => 'The webhook secret cannot be read');
  if (typeof target === 'string') return { ok: false, attempts: 0, error: target };
  const body = JSON.stringify(payload);
  const messageId = newMessageId();
  const backoff = deps.backoffMs ?? BOT_WEBHOOK_BACKOFF_MS;
  const agent = new Agent({ connect: guardedConnector(deps.network ?? systemNetwork, deps.allowPrivate) });
  let error = '';
  try {
    for (let attempt = 1; attempt <= BOT_WEBHOOK_ATTEMPTS; attempt++) {
      if (attempt > 1) await new Promise((resolve) => setTimeout(resolve, backoff[attempt - 2] ?? 0));
      let retry = true;
      try {
        const signed = target.secret
          ? webhookHeaders(target.secret, messageId, Math.floor(Date.now() / 1000), body)
          : {};
        const response = await request(target.url, {
          method: 'POST',
          dispatcher: agent,
          headers: { 'content-type': 'application/json', 'user-agent': 'Otklik-Bot', ...signed },
          body,
          headersTimeout: TIMEOUT_MS,
          bodyTimeout: TIMEOUT_MS,
        });
        const text = (await response.body.text()).slice(0, ANSWER_MAX);
        if (response.statusCode >= 200 && response.statusCode <= 299)
          return { ok: true, attempts: attempt, answer: parseAnswer(text) };
        error = `HTTP ${response.statusCode}`;
        retry = response.statusCode === 429 || response.statusCode >= 500;
      } catch (e) {
        error = (e as Error).message.slice(0, 300);
      }
      if (!retry) return { ok: false, attempts: attempt, error };
    }
    return { ok: false, attempts: BOT_WEBHOOK_ATTEMPTS, error };
  } finally {
    await agent.close().catch(() => undefined);
  }
}

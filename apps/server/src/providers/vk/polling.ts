import { z } from 'zod';
import { requestTimeout } from '../http';
import type { InboundEvent } from '../inbound';
import { type ConnectorContext, ConnectorError, type PollResult } from '../types';
import { communityToken, type VkApi, vkApi } from './client';
import { callbackEventSchema, mapUpdate } from './mapping';
import { withProfiles } from './profiles';
import { accountOf } from './webhook';

// Bots Long Poll (PROVIDERS §2): groups.getLongPollServer gives {server, key, ts}; then
// GET {server}?act=a_check&key&ts&wait returns {ts, updates} with the Callback API's objects, or
// failed 1 (continue with the new ts), 2 (key expired: new key), 3 (history lost: new key and ts).
// The cursor we keep is that triple, as JSON.

const cursorSchema = z.object({ server: z.string(), key: z.string(), ts: z.string() });
type LongPollCursor = z.infer<typeof cursorSchema>;

const answerSchema = z.object({
  ts: z.union([z.string(), z.number()]).optional(),
  failed: z.number().optional(),
  updates: z.array(z.unknown()).optional(),
});

function parseCursor(cursor: string | null): LongPollCursor | undefined {
  if (!cursor) return undefined;
  try {
    const parsed = cursorSchema.safeParse(JSON.parse(cursor));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

async function longPollServer(api: VkApi, groupId: number): Promise<LongPollCursor> {
  const server = await api<{ server: string; key: string; ts: string | number }>('groups.getLongPollServer', {
    group_id: groupId,
  });
  return { server: server.server, key: server.key, ts: String(server.ts) };
}

/** Waits on VK's long-poll server a little longer than `wait` before calling it a network failure. */
async function check(ctx: ConnectorContext, cursor: LongPollCursor, wait: number, signal: AbortSignal) {
  const url = new URL(cursor.server);
  url.searchParams.set('act', 'a_check');
  url.searchParams.set('key', cursor.key);
  url.searchParams.set('ts', cursor.ts);
  url.searchParams.set('wait', String(wait));
  let res: Response;
  try {
    res = await ctx.fetch(url, { signal: requestTimeout(ctx.config, wait * 1000, signal) });
  } catch (error) {
    throw new ConnectorError('temporary', `VK long poll unreachable: ${(error as Error).message}`, {
      reason: { key: 'failure.unreachable', params: { network: 'VK' }, detail: (error as Error).message },
    });
  }
  if (!res.ok)
    throw new ConnectorError('temporary', `VK long poll answered HTTP ${res.status}`, {
      reason: { key: 'failure.badAnswer', params: { network: 'VK' }, detail: `HTTP ${res.status}` },
    });
  const parsed = answerSchema.safeParse(await res.json().catch(() => null));
  if (!parsed.success)
    throw new ConnectorError('temporary', 'VK long poll answered something unexpected', {
      reason: { key: 'failure.badAnswer', params: { network: 'VK' } },
    });
  return parsed.data;
}

export async function pollVk(
  ctx: ConnectorContext,
  cursor: string | null,
  opts: { timeoutSeconds: number; signal: AbortSignal },
): Promise<PollResult> {
  const account = accountOf(ctx);
  const api = vkApi(ctx, communityToken(ctx.credentials));
  const current = parseCursor(cursor) ?? (await longPollServer(api, account.groupId));
  // VK holds a_check up to 90 s; 0 answers at once.
  const wait = Math.max(0, Math.min(opts.timeoutSeconds, 90));
  const answer = await check(ctx, current, wait, opts.signal);

  if (answer.failed !== undefined) {
    if (answer.failed === 1 && answer.ts !== undefined)
      return { events: [], cursor: JSON.stringify({ ...current, ts: String(answer.ts) }) };
    const fresh = await longPollServer(api, account.groupId);
    // failed 2: only the key expired, keep reading from where we were; 3 (or unknown): start afresh.
    const next = answer.failed === 2 ? { ...fresh, ts: current.ts } : fresh;
    return { events: [], cursor: JSON.stringify(next) };
  }

  const events: InboundEvent[] = [];
  for (const update of answer.updates ?? []) {
    const parsed = callbackEventSchema.safeParse(update);
    if (!parsed.success) continue;
    if (parsed.data.group_id !== undefined && parsed.data.group_id !== account.groupId) continue;
    events.push(...mapUpdate(parsed.data, account));
  }
  const next = { ...current, ts: answer.ts !== undefined ? String(answer.ts) : current.ts };
  return {
    events: events.length > 0 ? await withProfiles(api, events, ctx.config.VK_API_URL) : events,
    cursor: JSON.stringify(next),
  };
}

import type { ConnectorContext, UpdatesMode } from '../types';
import { webhookUrl } from '../updates';
import { callbackSecret, communityToken, groupIdOf, type VkApi, vkApi } from './client';
import { HANDLED_EVENT_TYPES } from './mapping';

// Subscribing a community to its updates (PROVIDERS §2): the Callback API server with our URL and
// secret (groups.addCallbackServer / editCallbackServer, then setCallbackSettings with the event types
// we map), or the Bots Long Poll (groups.setLongPollSettings). A community may have up to 10 callback
// servers, so ours is found again by its URL instead of being added on every reconnect.

/** VK limits a callback server's title to 14 characters (UNCONFIRMED). */
const SERVER_TITLE = 'Otklik';

interface CallbackServer {
  id: number;
  url: string;
}

const eventFlags = () => Object.fromEntries(HANDLED_EVENT_TYPES.map((type) => [type, 1]));

async function ourServers(api: VkApi, groupId: number, url: string): Promise<CallbackServer[]> {
  const answer = await api<{ items?: CallbackServer[] }>('groups.getCallbackServers', { group_id: groupId });
  return (answer.items ?? []).filter((server) => server.url === url);
}

export async function activateVk(
  ctx: ConnectorContext,
  opts: { mode: UpdatesMode; webhookUrl: string; webhookSecret: string },
): Promise<void> {
  const api = vkApi(ctx, communityToken(ctx.credentials));
  const groupId = groupIdOf(ctx.credentials, ctx.object.externalId);
  const apiVersion = ctx.config.VK_API_VERSION;
  const existing = await ourServers(api, groupId, opts.webhookUrl);

  if (opts.mode === 'polling') {
    // Switching from webhooks: VK would otherwise keep pushing to an address nobody reads.
    for (const server of existing)
      await api('groups.deleteCallbackServer', { group_id: groupId, server_id: server.id });
    await api('groups.setLongPollSettings', {
      group_id: groupId,
      enabled: 1,
      api_version: apiVersion,
      ...eventFlags(),
    });
    return;
  }

  // Adding (or re-pointing) the server makes VK send the `confirmation` handshake (webhook.ts).
  const server = {
    url: opts.webhookUrl,
    title: SERVER_TITLE,
    secret_key: callbackSecret(opts.webhookSecret),
  };
  let serverId: number;
  if (existing[0]) {
    serverId = existing[0].id;
    await api('groups.editCallbackServer', { group_id: groupId, server_id: serverId, ...server });
  } else {
    const added = await api<{ server_id: number }>('groups.addCallbackServer', {
      group_id: groupId,
      ...server,
    });
    serverId = added.server_id;
  }
  await api('groups.setCallbackSettings', {
    group_id: groupId,
    server_id: serverId,
    api_version: apiVersion,
    ...eventFlags(),
  });
}

/**
 * Removes our callback server. The Long Poll setting is left as it is: another bot of the community may
 * read it, and without us polling it costs nothing.
 */
export async function deactivateVk(ctx: ConnectorContext): Promise<void> {
  const api = vkApi(ctx, communityToken(ctx.credentials));
  const groupId = groupIdOf(ctx.credentials, ctx.object.externalId);
  for (const server of await ourServers(api, groupId, webhookUrl(ctx.config, ctx.object)))
    await api('groups.deleteCallbackServer', { group_id: groupId, server_id: server.id });
}

import type { EventDispatcher } from './emulator-events';
import { type Caller, type EmulatorState, fault, requireAdminUser, requireManager } from './emulator-state';

// TEST-ONLY. Emulated VK methods about communities and people: groups.getById, users.get, the Callback
// API server set-up, Bots Long Poll settings, bans (PROVIDERS §2; groups.ban is a user-token method).

export interface MethodContext {
  params: Record<string, string>;
  caller: Caller;
  state: EmulatorState;
  events: EventDispatcher;
  /** Base URL of the emulator (the long-poll server lives under it). */
  baseUrl: string;
  /** Delivers an event the API call caused, a moment after the call answers (VK pushes asynchronously). */
  echo: (groupId: number, type: string, object: Record<string, unknown>) => void;
}

export type MethodHandler = (ctx: MethodContext) => unknown;

/** A numeric parameter, or VK's error 100 naming it. */
export const num = (ctx: MethodContext, name: string): number => {
  const value = Number(ctx.params[name]);
  if (ctx.params[name] === undefined || !Number.isFinite(value)) throw fault(100, `${name} is undefined`);
  return value;
};

/** `message_new: 1, wall_reply_new: 1, …` in a settings call → the set of enabled types. */
function enabledTypes(params: Record<string, string>, current: Set<string>): Set<string> {
  const next = new Set(current);
  for (const [key, value] of Object.entries(params)) {
    if (!/^[a-z_]+$/.test(key) || ['group_id', 'server_id', 'api_version', 'enabled'].includes(key)) continue;
    if (value === '1') next.add(key);
    else if (value === '0') next.delete(key);
  }
  return next;
}

export const groupMethods: Record<string, MethodHandler> = {
  'groups.getById': ({ params, caller, state }) => {
    const wanted = params.group_id ?? params.group_ids;
    const group = wanted
      ? [...state.groups.values()].find((g) => String(g.id) === wanted || g.screen_name === wanted)
      : caller.kind === 'group'
        ? caller.group
        : undefined;
    if (!group) throw fault(100, 'group_ids is undefined');
    const { id, name, screen_name, photo_200 } = group;
    return { groups: [{ id, name, screen_name, photo_200, type: 'group', is_closed: 0 }], profiles: [] };
  },

  'users.get': ({ params, caller, state }) => {
    const ids = params.user_ids
      ? params.user_ids.split(',').map(Number)
      : caller.kind === 'user'
        ? [caller.userId]
        : [];
    if (ids.length === 0) throw fault(100, 'user_ids is undefined');
    return ids.flatMap((id) => {
      const user = state.users.get(id);
      return user ? [user] : [];
    });
  },

  'groups.getCallbackConfirmationCode': ({ params, caller, state }) => {
    const group = state.group(params.group_id);
    requireManager(caller, group);
    return { code: group.confirmationCode };
  },

  'groups.getCallbackServers': ({ params, caller, state }) => {
    const group = state.group(params.group_id);
    requireManager(caller, group);
    const items = group.servers.map(({ id, url, title, secret_key, status }) => ({
      id,
      url,
      title,
      secret_key,
      status,
      creator_id: 0,
    }));
    return { count: items.length, items };
  },

  'groups.addCallbackServer': ({ params, caller, state, events }) => {
    const group = state.group(params.group_id);
    requireManager(caller, group);
    if (!params.url || !params.title) throw fault(100, 'url is undefined');
    if (group.servers.length >= 10) throw fault(100, 'too many servers');
    // UNCONFIRMED (PROVIDERS §2 gives no format): latin letters and digits, up to 50.
    if (params.secret_key && !/^[A-Za-z0-9]{1,50}$/.test(params.secret_key))
      throw fault(100, 'secret_key is invalid');
    group.serverSeq += 1;
    const server = {
      id: group.serverSeq,
      url: params.url,
      title: params.title.slice(0, 14),
      secret_key: params.secret_key ?? '',
      status: 'unconfigured' as const,
      api_version: '5.199',
      events: new Set<string>(),
    };
    group.servers.push(server);
    void events.confirm(group, server);
    return { server_id: server.id };
  },

  'groups.editCallbackServer': ({ params, caller, state, events }) => {
    const group = state.group(params.group_id);
    requireManager(caller, group);
    const server = group.servers.find((s) => s.id === Number(params.server_id));
    if (!server) throw fault(104);
    server.url = params.url ?? server.url;
    server.title = (params.title ?? server.title).slice(0, 14);
    server.secret_key = params.secret_key ?? server.secret_key;
    void events.confirm(group, server);
    return 1;
  },

  'groups.deleteCallbackServer': ({ params, caller, state }) => {
    const group = state.group(params.group_id);
    requireManager(caller, group);
    const before = group.servers.length;
    group.servers = group.servers.filter((s) => s.id !== Number(params.server_id));
    if (group.servers.length === before) throw fault(104);
    return 1;
  },

  'groups.setCallbackSettings': ({ params, caller, state }) => {
    const group = state.group(params.group_id);
    requireManager(caller, group);
    const server = group.servers.find((s) => s.id === Number(params.server_id));
    if (!server) throw fault(104);
    server.api_version = params.api_version ?? server.api_version;
    server.events = enabledTypes(params, server.events);
    return 1;
  },

  'groups.setLongPollSettings': ({ params, caller, state }) => {
    const group = state.group(params.group_id);
    requireManager(caller, group);
    const lp = group.longPoll;
    if (params.enabled !== undefined) lp.enabled = params.enabled === '1';
    lp.api_version = params.api_version ?? lp.api_version;
    lp.events = enabledTypes(params, lp.events);
    return 1;
  },

  'groups.getLongPollServer': ({ params, caller, state, baseUrl }) => {
    const group = state.group(params.group_id);
    requireManager(caller, group);
    if (!group.longPoll.enabled) throw fault(100, 'Long Poll is disabled');
    return { key: group.longPoll.key, server: `${baseUrl}/lp/${group.id}`, ts: String(group.longPoll.ts) };
  },

  'groups.ban': (ctx) => {
    const group = ctx.state.group(ctx.params.group_id);
    requireAdminUser(ctx.caller, group);
    const owner = num(ctx, 'owner_id');
    const end = ctx.params.end_date ? Number(ctx.params.end_date) : 0;
    group.bans.set(owner, { end_date: end, comment: ctx.params.comment });
    return 1;
  },

  'groups.unban': (ctx) => {
    const group = ctx.state.group(ctx.params.group_id);
    requireAdminUser(ctx.caller, group);
    group.bans.delete(num(ctx, 'owner_id'));
    return 1;
  },
};

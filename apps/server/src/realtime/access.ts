import { type ApiGateResult, type SocketAudience, socketAudience } from '@otklik/shared';
import { type InboxScope, inScope } from '../lib/account-scope';
import type { BusEvent } from './bus';

/**
 * What one socket may receive, resolved once per connection (and again when memberships, groups or
 * accounts change) from the same scopes the read API uses (modules/inbox/read/scope.ts), so a pushed row is
 * never one the member could not have listed.
 */
export interface ConnectionAccess {
  /** Every space the user is a member of: events without account content go by space. */
  spaceIds: Set<number>;
  /** `items.view` scope: comments and reviews. */
  items: InboxScope;
  /** `messages.view` scope: chats and their messages. */
  messages: InboxScope;
  /** Spaces where the user manages accounts and so sees every account (objects/policy.ts). */
  managedAccounts: Set<number>;
  /** docs/product/states.md access gate for the socket (http/gate.ts): anything but 'ok' closes it. */
  gate: ApiGateResult['kind'];
}

export const NO_ACCESS: ConnectionAccess = {
  spaceIds: new Set(),
  items: { spaces: new Map() },
  messages: { spaces: new Map() },
  managedAccounts: new Set(),
  gate: 'ok',
};

/** The socket's route, as the access gate knows it. */
export const SOCKET_PATH = '/v1/ws';

/** The audiences that name accounts: delivery also needs the member's scope to cover them. */
type AccountAudience = Extract<SocketAudience, 'items' | 'messages' | 'authors' | 'accounts'>;

const numbers = (value: unknown): number[] =>
  Array.isArray(value) ? value.filter((v): v is number => typeof v === 'number') : [];

const fieldOf = (rows: unknown, field: string): unknown[] =>
  Array.isArray(rows)
    ? rows.map((r) => (r && typeof r === 'object' ? (r as Record<string, unknown>)[field] : null))
    : [];

/**
 * The accounts an event concerns: its `object_id` and the `object_id` of every row it carries (for
 * `objects.*`, the accounts themselves). Every one of them must be readable for the event to go out.
 */
export function accountsOf(event: BusEvent, audience: AccountAudience): number[] {
  const p = event.payload;
  const ids = new Set<number>(numbers([p.object_id]));
  for (const key of ['items', 'chats', 'authors'])
    for (const id of numbers(fieldOf(p[key], 'object_id'))) ids.add(id);
  if (p.chat && typeof p.chat === 'object')
    for (const id of numbers([(p.chat as { object_id?: unknown }).object_id])) ids.add(id);
  if (audience === 'accounts') {
    for (const id of numbers(fieldOf(p.objects, 'id'))) ids.add(id);
    for (const id of numbers(p.ids)) ids.add(id);
  }
  return [...ids];
}

/**
 * Whether the scope lets its member read content of these accounts of the space. An event that names
 * no account goes only to members who see every account of the space (fail closed for user groups).
 */
function covers(scope: InboxScope, spaceId: number, objectIds: number[]): boolean {
  if (!scope.spaces.has(spaceId)) return false;
  if (objectIds.length === 0) return scope.spaces.get(spaceId) === null;
  return objectIds.every((id) => inScope(scope, spaceId, id));
}

const nobody = () => false;

/**
 * Which connections may receive the event, by the audience the catalogue declares for it
 * (packages/shared/src/socket-events.ts): the space, then the role for the content kind and the user
 * group. A name outside the catalogue, or a node-to-node event, goes to no socket; the `userIds` an event
 * names narrow it further (RealtimeHub.send). The audience and the accounts are read once per event: the
 * hub asks for every connection of the node, thousands in a big space.
 */
export function receiverTest(event: BusEvent): (access: ConnectionAccess) => boolean {
  const audience = socketAudience(event.type);
  if (audience === undefined || audience === 'nodes') return nobody;
  const spaceId = event.spaceId;
  if (spaceId === undefined) return audience === 'users' && event.userIds !== undefined ? () => true : nobody;
  if (audience === 'users' && event.userIds === undefined) return nobody;
  if (audience === 'space' || audience === 'users') return (access) => access.spaceIds.has(spaceId);
  const objectIds = accountsOf(event, audience);
  const inSpace = (access: ConnectionAccess) => access.spaceIds.has(spaceId);
  switch (audience) {
    case 'items':
      return (access) => inSpace(access) && covers(access.items, spaceId, objectIds);
    case 'messages':
      return (access) => inSpace(access) && covers(access.messages, spaceId, objectIds);
    case 'accounts':
      return (access) =>
        inSpace(access) &&
        (access.managedAccounts.has(spaceId) || seesThroughEither(access, spaceId, objectIds));
    case 'authors':
      return (access) => inSpace(access) && seesThroughEither(access, spaceId, objectIds);
  }
}

function seesThroughEither(access: ConnectionAccess, spaceId: number, objectIds: number[]) {
  return covers(access.items, spaceId, objectIds) || covers(access.messages, spaceId, objectIds);
}

/** Whether the member's view of the space is narrowed to a user group (their access depends on groups). */
export function isGroupLimited(access: ConnectionAccess, spaceId: number): boolean {
  const items = access.items.spaces.get(spaceId);
  const messages = access.messages.spaces.get(spaceId);
  return (items !== undefined && items !== null) || (messages !== undefined && messages !== null);
}

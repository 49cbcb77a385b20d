/**
 * What part of the inbox an actor may see for an ability: per space, either every account (null) or
 * the accounts of the actor's user group (docs/product/roles.md: "other user groups can be limited to what is
 * assigned to the group"). Every inbox list and record query goes through this.
 *
 * Computed by modules/inbox/read/scope.ts scopeFor; kept in lib/ so the realtime hub can test an event
 * against it without importing modules (issue 12).
 */
export interface InboxScope {
  /** space id → allowed object ids, or null for all accounts of that space. */
  spaces: Map<number, number[] | null>;
}

export function inScope(scope: InboxScope, spaceId: number, objectId: number): boolean {
  if (!scope.spaces.has(spaceId)) return false;
  const ids = scope.spaces.get(spaceId);
  return ids === null || ids!.includes(objectId);
}

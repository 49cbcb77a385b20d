import { type Ability, can } from '@otklik/shared';
import { useCallback, useMemo } from 'react';
import { useMembers } from '../../../api/inbox';
import type { AccountObject, Company, Tag } from '../../../api/types';
import { useShell } from '../../../shell/ShellContext';
import { useInboxT } from '../i18n';

// What inbox screens look up beside each row: accounts, tags, labels, members' names, and what the
// signed-in person may do in a space (docs/product/roles.md, the shared ability table).

export interface InboxData {
  objectsById: Map<number, AccountObject>;
  tagsById: Map<number, Tag>;
  /** Companies with their settings (tags_mode decides the tags offered for their accounts). */
  companiesById: Map<number, Company>;
  labelsById: Map<number, { id: number; name: string; color: string | null; space_id: number }>;
  /** A member's name; "Member #id" when the user may not list members (see api/inbox useMembers). */
  memberName(id: number | null | undefined): string | null;
  /** A member's name, or null when unknown. */
  knownMemberName(id: number | null | undefined): string | null;
  members: Array<{ id: number; name: string; space_id: number }>;
  meId: number;
  /** May the user do this in that space. */
  canIn(spaceId: number, ability: Ability): boolean;
  /** In any of their spaces. */
  canAny(ability: Ability): boolean;
}

export function useInboxData(): InboxData {
  const { objects, actor, user } = useShell();
  const members = useMembers();

  const objectsById = useMemo(() => new Map((objects?.items ?? []).map((o) => [o.id, o])), [objects]);
  const companiesById = useMemo(() => new Map((objects?.companies ?? []).map((c) => [c.id, c])), [objects]);
  const tagsById = useMemo(() => new Map((objects?.tags ?? []).map((tag) => [tag.id, tag])), [objects]);
  const labelsById = useMemo(
    () => new Map((objects?.labels ?? []).map((label) => [label.id, label])),
    [objects],
  );
  const memberList = useMemo(() => {
    const list = (members.data ?? []).map((m) => ({ id: m.id, name: m.name, space_id: m.space_id }));
    if (!list.some((m) => m.id === user.id)) list.push({ id: user.id, name: user.name, space_id: 0 });
    return list;
  }, [members.data, user]);
  const names = useMemo(() => new Map(memberList.map((m) => [m.id, m.name])), [memberList]);

  const t = useInboxT();
  const knownMemberName = useCallback(
    (id: number | null | undefined) => (id ? (names.get(id) ?? null) : null),
    [names],
  );
  const memberName = useCallback(
    (id: number | null | undefined) => (id ? (names.get(id) ?? t('list.member', { id })) : null),
    [names, t],
  );
  const canIn = useCallback((spaceId: number, ability: Ability) => can(actor, ability, spaceId), [actor]);
  const canAny = useCallback((ability: Ability) => can(actor, ability), [actor]);

  return {
    objectsById,
    companiesById,
    tagsById,
    labelsById,
    memberName,
    knownMemberName,
    members: memberList,
    meId: user.id,
    canIn,
    canAny,
  };
}

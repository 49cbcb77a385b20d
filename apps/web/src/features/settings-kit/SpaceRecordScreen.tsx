import type { Ability } from '@otklik/shared';
import type { ReactNode } from 'react';
import { RecordState, useRecordId } from './SettingsForm';
import { useManagedSpace } from './useManagedSpace';

// The create/edit route of a space's record whose list query answers `{ items }` (macros, templates,
// rules, bots, AI agents): the off state without a space to manage, then RecordState over the list,
// then the form with the record (undefined when creating) and the space it belongs to.

interface ItemsQuery<T> {
  isPending: boolean;
  error: Error | null;
  refetch: () => unknown;
  data?: { items: T[]; can_manage?: number[] };
}

export function SpaceRecordScreen<T extends { id: number; space_id: number }>({
  ability,
  useList,
  off,
  notFoundTitle,
  errorTitle,
  children,
}: {
  ability: Ability;
  /** The list's query hook, enabled once the user has a space to manage. */
  useList: (enabled: boolean) => ItemsQuery<T>;
  off: ReactNode;
  notFoundTitle: string;
  errorTitle: string;
  /**
   * The form: `key` remounts it when the route's record changes; `canManageSpace` is whether the list
   * names the record's space among those the user manages (`can_manage`).
   */
  children: (
    record: T | undefined,
    spaceId: number,
    key: number | 'new',
    canManageSpace: boolean,
  ) => ReactNode;
}) {
  const id = useRecordId();
  const { spaces, spaceId } = useManagedSpace(ability);
  const list = useList(spaces.length > 0);
  if (spaces.length === 0) return <>{off}</>;
  return (
    <RecordState
      query={list}
      id={id}
      find={(id) => list.data?.items.find((x) => x.id === id)}
      notFoundTitle={notFoundTitle}
      errorTitle={errorTitle}
    >
      {(record) => {
        const space = record?.space_id ?? spaceId ?? 0;
        return children(record, space, id ?? 'new', (list.data?.can_manage ?? []).includes(space));
      }}
    </RecordState>
  );
}

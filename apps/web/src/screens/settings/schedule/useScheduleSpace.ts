import type { Ability } from '@otklik/shared';
import { useManagedSpace } from '../../../features/settings-kit/useManagedSpace';
import { useShell } from '../../../shell/ShellContext';

/** The spaces where the caller may do `ability` with schedules, the one chosen by ?space_id, its statuses. */
export function useScheduleSpace(ability: Ability) {
  const { config } = useShell();
  const { spaces, space, setSpace } = useManagedSpace(ability);
  return { spaces, space, setSpace, statuses: config.user_statuses.filter((s) => s.space_id === space?.id) };
}

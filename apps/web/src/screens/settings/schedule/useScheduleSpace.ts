import { type Ability, spacesWhere } from '@otklik/shared';
import { useSearchParams } from 'react-router';
import type { ConfigSpace } from '../../../api/types';
import { useShell } from '../../../shell/ShellContext';

/** The spaces where the caller may do `ability` with schedules, and the one chosen by ?space_id. */
export function useScheduleSpace(ability: Ability) {
  const { actor, config } = useShell();
  const [params, setParams] = useSearchParams();
  const allowed = spacesWhere(actor, ability);
  const spaces: ConfigSpace[] = config.spaces.filter((space) => allowed.some((s) => s.id === space.id));
  const requested = Number(params.get('space_id'));
  const space = spaces.find((s) => s.id === requested) ?? spaces[0];
  const setSpace = (id: number) => {
    const next = new URLSearchParams(params);
    next.set('space_id', String(id));
    setParams(next, { replace: true });
  };
  return { spaces, space, setSpace, statuses: config.user_statuses.filter((s) => s.space_id === space?.id) };
}

import { can } from '@otklik/shared';
import { useShell } from '../../../shell/ShellContext';
import { StatsPage } from '../StatsPage';
import { Statuses } from './StatusesScreen';

/** stats/my/statuses: the caller's own time per status; without stats.view anywhere, no tabs. */
export default function MyStatusesScreen() {
  const { config, actor } = useShell();
  const own = !config.spaces.some((space) => can(actor, 'stats.view', space.id));
  return (
    <StatsPage tab="stats-my" own={own} exportTab={{ tab: 'my_statuses' }}>
      {(frame) => <Statuses frame={frame} endpoint="my/statuses" />}
    </StatsPage>
  );
}

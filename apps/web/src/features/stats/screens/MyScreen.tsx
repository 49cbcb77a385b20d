import { can } from '@otklik/shared';
import { useShell } from '../../../shell/ShellContext';
import { StatsPage } from '../StatsPage';
import { Person } from './PersonScreen';

/** stats/my: the caller's own figures; without stats.view anywhere, the frame shows no tabs. */
export default function MyScreen() {
  const { config, actor } = useShell();
  const own = !config.spaces.some((space) => can(actor, 'stats.view', space.id));
  return (
    <StatsPage tab="stats-my" own={own}>
      {(frame) => <Person frame={frame} endpoint="my" />}
    </StatsPage>
  );
}

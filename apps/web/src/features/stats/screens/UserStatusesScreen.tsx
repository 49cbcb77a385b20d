import { useParams } from 'react-router';
import { StatsPage } from '../StatsPage';
import { Statuses } from './StatusesScreen';

/** stats/users/:id/statuses: one member's time per status (stats.view), under the statuses tab. */
export default function UserStatusesScreen() {
  const id = Number(useParams().id);
  return (
    <StatsPage tab="stats-users-statuses" exportTab={{ tab: 'user_statuses', userId: id }}>
      {(frame) => <Statuses frame={frame} endpoint={`users/${id}/statuses`} />}
    </StatsPage>
  );
}

import { useParams } from 'react-router';
import { StatsPage } from '../StatsPage';
import { Workinghours } from './WorkinghoursScreen';

/** stats/users/:id/workinghours: one member's scheduled and worked time (stats.view). */
export default function UserWorkinghoursScreen() {
  const id = Number(useParams().id);
  return (
    <StatsPage tab="stats-users-workinghours" exportTab={{ tab: 'user_workinghours', userId: id }}>
      {(frame) => <Workinghours frame={frame} endpoint={`users/${id}/workinghours`} />}
    </StatsPage>
  );
}

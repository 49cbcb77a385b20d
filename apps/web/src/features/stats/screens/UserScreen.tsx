import { useParams } from 'react-router';
import { StatsPage } from '../StatsPage';
import { Person } from './PersonScreen';

/** stats/users/:id: one team member's figures (stats.view), under the team tab. */
export default function UserScreen() {
  const id = Number(useParams().id);
  return (
    <StatsPage tab="stats-users" exportTab={{ tab: 'user', userId: id }}>
      {(frame) => <Person frame={frame} endpoint={`users/${id}`} back />}
    </StatsPage>
  );
}

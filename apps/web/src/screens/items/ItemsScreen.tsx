import { InboxListView } from '../../features/inbox/components/InboxListView';

/** items — comments, reviews and mentions (SPEC §2). */
export default function ItemsScreen() {
  return <InboxListView kind="items" />;
}

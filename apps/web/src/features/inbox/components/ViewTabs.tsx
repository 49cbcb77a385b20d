import { Button, Group, Text } from '@mantine/core';
import { useViewCounts } from '../../../api/workday';
import { useInboxT } from '../i18n';
import type { InboxFilters, ListKind } from '../model/filters';
import { INBOX_VIEWS, viewOf, withView } from '../model/views';

/**
 * Mine / Unassigned / All above a list, each with its live count (GET /v1/counts/views over the default
 * statuses, refreshed by the socket), and Mentions of me (notes mentioning the user, unseen; its count
 * refreshed by `mentions.changed` on the user's own sockets).
 */
export function ViewTabs({
  kind,
  filters,
  meId,
  onChange,
  mentions,
  onMentions,
}: {
  kind: ListKind;
  filters: InboxFilters;
  meId: number | null;
  onChange: (next: InboxFilters) => void;
  /** The Mentions of me view is shown instead of the list. */
  mentions: boolean;
  onMentions: () => void;
}) {
  const t = useInboxT();
  const counts = useViewCounts().data?.[kind];
  const current = mentions ? 'mentions' : viewOf(filters, meId);
  if (meId === null) return null;
  return (
    <Group gap="xs" wrap="wrap" role="group" aria-label={t('workday.views.label')} data-testid="inbox-views">
      {INBOX_VIEWS.map((view) => (
        <Button
          key={view}
          size="compact-md"
          radius="xl"
          variant={current === view ? 'filled' : 'default'}
          aria-pressed={current === view}
          onClick={() => onChange(withView(filters, view, meId))}
          data-testid={`view-${view}`}
          rightSection={
            <Text span fz="xs" fw={700} data-testid={`view-${view}-count`}>
              {counts ? counts[view] : '…'}
            </Text>
          }
        >
          {t(`workday.views.${view}`)}
        </Button>
      ))}
      <Button
        size="compact-md"
        radius="xl"
        variant={mentions ? 'filled' : 'default'}
        color={counts && counts.mentions > 0 && !mentions ? 'orange' : undefined}
        aria-pressed={mentions}
        onClick={onMentions}
        data-testid="view-mentions"
        title={t('notes.viewTitle')}
        rightSection={
          <Text span fz="xs" fw={700} data-testid="view-mentions-count">
            {counts ? counts.mentions : '…'}
          </Text>
        }
      >
        {t('notes.view')}
      </Button>
      {current === null && (
        <Text fz="xs" c="dimmed">
          {t('workday.views.custom')}
        </Text>
      )}
    </Group>
  );
}

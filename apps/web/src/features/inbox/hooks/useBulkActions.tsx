import { Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { BULK_UNDO_SHOW_S, type BulkAction, type BulkResult } from '@otklik/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { undoBulkAction, useBulkAction } from '../../../api/inbox';
import { showError } from '../../../components/notify';
import { type InboxT, useInboxT } from '../i18n';
import { type BulkSummaryPart, failureReasons, isCleanBulk, summarizeBulk } from '../model/bulkResults';
import type { ListKind } from '../model/filters';

// Running a bulk action from the list (issue 13): one request, a toast that says per kind what
// happened ("Closed: 3 · no access: 1") with Undo for a few seconds; Undo restores on the server what
// nobody changed since and says so. The rows themselves change over the socket, as for single actions.

const line = (t: InboxT, parts: BulkSummaryPart[]) =>
  parts.map((part) => t(`bulk.${part.key}`, { count: part.count })).join(' · ');

function ResultToast({
  text,
  reasons,
  onUndo,
}: {
  text: string;
  reasons: string[];
  onUndo?: () => Promise<void>;
}) {
  const t = useInboxT();
  const [undoing, setUndoing] = useState(false);
  return (
    <Group justify="space-between" wrap="nowrap" gap="sm" data-testid="bulk-result">
      <Stack gap={2}>
        <Text fz="sm" fw={600}>
          {text}
        </Text>
        {reasons.map((reason) => (
          <Text key={reason} fz="xs" c="dimmed">
            {reason}
          </Text>
        ))}
      </Stack>
      {onUndo && (
        <Button
          size="compact-sm"
          variant="light"
          loading={undoing}
          onClick={() => {
            setUndoing(true);
            void onUndo().finally(() => setUndoing(false));
          }}
          data-testid="bulk-undo"
        >
          {t('bulk.undo')}
        </Button>
      )}
    </Group>
  );
}

export function useBulkActions(kind: ListKind) {
  const t = useInboxT();
  const queryClient = useQueryClient();
  const mutation = useBulkAction(kind);

  const showResults = useCallback(
    (results: BulkResult[], parts: BulkSummaryPart[], undo?: () => Promise<void>) => {
      const id = `bulk-${Date.now()}-${Math.random().toString(36).slice(2)}`;
      notifications.show({
        id,
        color: isCleanBulk(results) ? 'teal' : 'orange',
        autoClose: BULK_UNDO_SHOW_S * 1000,
        message: (
          <ResultToast
            text={line(t, parts)}
            reasons={failureReasons(results)}
            onUndo={
              undo
                ? async () => {
                    await undo();
                    notifications.hide(id);
                  }
                : undefined
            }
          />
        ),
      });
    },
    [t],
  );

  /** Runs `action` on `ids`; true when the server answered (whatever it said per id). */
  const run = useCallback(
    async (action: BulkAction, ids: number[]) => {
      try {
        const response = await mutation.mutateAsync({ ids, action });
        const token = response.undo_token;
        showResults(
          response.results,
          summarizeBulk(response.results, `done.${action.kind}`),
          token
            ? async () => {
                try {
                  const undone = await undoBulkAction(queryClient, kind, token);
                  showResults(undone.results, summarizeBulk(undone.results, 'undone'));
                } catch (error) {
                  showError(error);
                }
              }
            : undefined,
        );
        return true;
      } catch (error) {
        showError(error);
        return false;
      }
    },
    [mutation, showResults, queryClient, kind],
  );

  return { run, busy: mutation.isPending };
}

import { Center, Loader, Paper, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { SPLIT_VIEW_MIN_WIDTH } from '@otklik/shared';
import { IconLayoutSidebarLeftExpand } from '@tabler/icons-react';
import { Suspense } from 'react';
import { Outlet, useOutletContext, useParams } from 'react-router';
import { useListDefaults } from '../hooks/useListDefaults';
import { useInboxT } from '../i18n';
import type { ListKind } from '../model/filters';
import { InboxListView } from './InboxListView';
import classes from './split.module.css';

// Split view on wide screens (issue 13): at ≥ 1381 px the list stays on the left and the open record
// shows on the right. This is the layout route of the list and record routes (app/router.tsx), so the
// list stays mounted — its pages, scroll, selection — while records open beside it; the address is
// still the record's (/items/5), so reload and back work. Narrower screens get the routes as before.

interface SplitContext {
  split: boolean;
}

/** True inside the split view's right pane (the list is on the left already). */
export function useSplitPane(): boolean {
  return useOutletContext<SplitContext | undefined>()?.split === true;
}

export function useWideEnoughForSplit(): boolean {
  // Read at once (not after a first narrow render): the record would otherwise mount twice.
  return useMediaQuery(`(min-width: ${SPLIT_VIEW_MIN_WIDTH}px)`, undefined, {
    getInitialValueInEffect: false,
  });
}

export function InboxSplit({ kind }: { kind: ListKind }) {
  const wide = useWideEnoughForSplit();
  const onRecord = useParams().id !== undefined;
  const ready = useListDefaults(kind, wide && !onRecord);
  // One tree for both widths: the record's pane keeps its place, so crossing 1381 px (a window resized,
  // a phone turned) does not remount an open record and lose its draft or open dialog.
  return (
    <div className={wide ? classes.grid : undefined} data-testid={wide ? 'split-view' : undefined}>
      {wide && <div className={classes.list}>{ready && <InboxListView kind={kind} split />}</div>}
      <section className={wide ? classes.pane : undefined} data-testid={wide ? 'split-pane' : undefined}>
        {/* The record's chunk loads here, not in the shell's fallback that would hide the list. */}
        <Suspense
          fallback={
            <Center py={60}>
              <Loader />
            </Center>
          }
        >
          <Outlet context={{ split: wide } satisfies SplitContext} />
        </Suspense>
      </section>
    </div>
  );
}

/** The right pane while no record is open. */
export function SplitEmpty({ kind }: { kind: ListKind }) {
  const t = useInboxT();
  return (
    <Paper withBorder radius="md" p="xl" data-testid="split-empty">
      <Stack align="center" gap="xs" ta="center" c="dimmed">
        <IconLayoutSidebarLeftExpand size={28} />
        <Text fz="sm">{t(kind === 'items' ? 'split.pickItem' : 'split.pickChat')}</Text>
      </Stack>
    </Paper>
  );
}

import { notifications } from '@mantine/notifications';
import { NOTIFICATION_DURATION_MS, SCHEDULE_REFRESH_S, STATUS_POLL_MS, translate } from '@otklik/shared';
import { useQueries } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { queryKeys } from '../../api/keys';
import { fetchMyStatus, fetchMyWorkingHours, useSetMyStatus } from '../../api/status';
import type { AppConfig, Me, MyWorkingHours, UserStatus } from '../../api/types';
import { currentLocale } from '../../i18n';
import { formatTime } from '../../lib/format';
import { useSocketEvent } from '../../realtime/hooks';
import { shouldPollStatus } from './statusLogic';
import { nowSeconds, statusStore } from './statusStore';
import {
  isScheduleStale,
  nextCheckDelayMs,
  type WorkingHoursNotice,
  workingHoursNotices,
} from './workingHours';

/** Poll one space's status from the server (auto_update=1 applies a due schedule slot first). */
async function pollStatus(spaceId: number) {
  try {
    const server = await fetchMyStatus(spaceId);
    statusStore.server(spaceId, server);
  } catch {
    // The next poll tries again; network errors are reported by the API client.
  }
}

/**
 * docs/product/states.md user status: seeded from the config, re-polled every 180 s (only when more than 600 s passed
 * since the last manual change), updated by socket `status` messages.
 */
export function useStatusSync(config: AppConfig) {
  const spaceIds = config.spaces.map((space) => space.id).join(',');

  useEffect(() => {
    for (const space of config.spaces) statusStore.server(space.id, { status: space.status });
  }, [config.spaces]);

  // Another user may sign in next in this tab.
  useEffect(() => () => statusStore.clear(), []);

  useEffect(() => {
    const ids = spaceIds ? spaceIds.split(',').map(Number) : [];
    const timer = setInterval(() => {
      const now = nowSeconds();
      for (const id of ids) {
        const local = statusStore.get(id);
        if (!local || shouldPollStatus(local, now)) void pollStatus(id);
      }
    }, STATUS_POLL_MS);
    return () => clearInterval(timer);
  }, [spaceIds]);

  useSocketEvent('status', (message) => {
    const spaceId = typeof message.space_id === 'number' ? message.space_id : null;
    const status = typeof message.status === 'number' ? message.status : null;
    if (spaceId === null) return;
    statusStore.socket(spaceId, {
      status,
      source: typeof message.source === 'string' ? message.source : undefined,
      changed_at: typeof message.changed_at === 'number' ? message.changed_at : undefined,
    });
  });
}

/** Pick a status: PUT /v1/me/status; on failure 'Не удалось сохранить статус' or the server's text. */
export function useChangeStatus() {
  const mutation = useSetMyStatus();
  const change = useCallback(
    async (spaceId: number, status: number) => {
      try {
        await mutation.mutateAsync({ status, space_id: spaceId });
        statusStore.manual(spaceId, status);
        return true;
      } catch (error) {
        notifications.show({
          id: 'status-save-failed',
          color: 'red',
          message:
            error instanceof ApiError && error.message
              ? error.message
              : translate(currentLocale(), 'error.statusSaveFailed'),
        });
        return false;
      }
    },
    [mutation.mutateAsync],
  );
  return { change, isPending: mutation.isPending, pendingStatus: mutation.variables?.status };
}

const SCHEDULE_REFRESH_MS = SCHEDULE_REFRESH_S * 1000;
/** After a 'changing' notice, ask the server (which applies the due slot) a little later. */
const POLL_AFTER_SWITCH_MS = 8_000;

/**
 * docs/product/states.md working hours: the user's schedule per space (spaces with user_workinghours), reloaded once
 * older than 1200 s or on a socket 'workinghours.changed'; checked about every minute for a slot that
 * starts now ('Смена статуса', 30 s) or in wh_status_notification seconds ('Скоро смена статуса').
 */
export function useWorkingHoursWatch(config: AppConfig, user: Me, enabled = true) {
  const { t, i18n } = useTranslation();
  const spaces = config.spaces.filter((space) => space.settings.user_workinghours);
  const schedules = useQueries({
    queries: spaces.map((space) => ({
      queryKey: [...queryKeys.myWorkingHours, space.id],
      queryFn: () => fetchMyWorkingHours(space.id),
      enabled,
      staleTime: SCHEDULE_REFRESH_MS,
      refetchInterval: SCHEDULE_REFRESH_MS,
    })),
  });
  const warnBeforeS = Number(user.settings.wh_status_notification ?? 0) || 0;
  const shown = useRef(new Set<string>());

  const latest = useRef({
    spaces,
    schedules,
    statuses: config.user_statuses,
    warnBeforeS,
    t,
    locale: i18n.language,
  });
  latest.current = {
    spaces,
    schedules,
    statuses: config.user_statuses,
    warnBeforeS,
    t,
    locale: i18n.language,
  };

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = () => {
      const { spaces, schedules, statuses, warnBeforeS, t, locale } = latest.current;
      const now = nowSeconds();
      const allSlots = [];
      for (const [index, space] of spaces.entries()) {
        const query = schedules[index];
        const data: MyWorkingHours | undefined = query?.data;
        if (query && query.dataUpdatedAt > 0 && isScheduleStale(query.dataUpdatedAt / 1000, now)) {
          void query.refetch();
        }
        if (!data) continue;
        allSlots.push(...data.items);
        const notices = workingHoursNotices({
          slots: data.items,
          currentStatus: statusStore.get(space.id)?.status ?? null,
          nowS: now,
          warnBeforeS,
        });
        for (const notice of notices) {
          if (shown.current.has(notice.key)) continue;
          shown.current.add(notice.key);
          showNotice(notice, statuses, space.timezone, t, locale);
          if (notice.kind === 'changing') setTimeout(() => void pollStatus(space.id), POLL_AFTER_SWITCH_MS);
        }
      }
      timer = setTimeout(check, nextCheckDelayMs(allSlots, nowSeconds(), warnBeforeS));
    };
    timer = setTimeout(check, 1_000);
    return () => clearTimeout(timer);
  }, []);
}

function showNotice(
  notice: WorkingHoursNotice,
  statuses: readonly UserStatus[],
  timeZone: string,
  t: ReturnType<typeof useTranslation>['t'],
  locale: string,
) {
  const status = statuses.find((s) => s.id === notice.slot.status);
  const name = status?.name ?? '';
  const lang = locale === 'en' ? 'en' : 'ru';
  // Called with plain keys: the typed t over every resource is too deep for the compiler here.
  const say = t as unknown as (key: string, options: Record<string, string>) => string;
  notifications.show({
    id: notice.key,
    color: notice.kind === 'changing' ? 'indigo' : 'yellow',
    title: translate(lang, notice.kind === 'changing' ? 'status.changing' : 'status.changingSoon'),
    message:
      notice.kind === 'changing'
        ? say('shell.status.switchingTo', { name })
        : say('shell.status.switchingAt', { name, time: formatTime(notice.slot.started_at, lang, timeZone) }),
    autoClose: NOTIFICATION_DURATION_MS.status,
  });
}

import {
  ActionIcon,
  Button,
  Checkbox,
  Group,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import type { BusinessHoursSettings, BusinessInterval } from '@otklik/shared';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBusinessHours, useBusinessHoursWrite, useCompanies } from '../../../api/settings';
import { showError, showSaved } from '../../../components/notify';
import { QueryState } from '../../../components/QueryState';
import { useLocale, useMessage } from '../../../i18n/useLocale';
import { formatMinutes, parseMinutes } from '../../../lib/zonedTime';
import { weekdayNames } from '../schedule/scheduleUtils';

// settings/workinghours → business hours: the space's weekly hours and special working days (the
// holidays below are its days off), or a company's override. Shared math and rules:
// packages/shared/src/business-hours.ts; what statistics make of it: docs/statistics.md "Business hours".

interface TimeRow {
  /** A stable React key of the row while it is edited. */
  key: number;
  start: string;
  end: string;
}
let nextKey = 0;
const newRow = (start: string, end: string): TimeRow => ({ key: ++nextKey, start, end });
interface SpecialRow extends TimeRow {
  day: string;
}
interface Draft {
  /** Per ISO weekday 1..7 (index 0..6): its intervals; empty = day off. */
  week: TimeRow[][];
  special: SpecialRow[];
}

const office = () => newRow('09:00', '18:00');

function toDraft(settings: BusinessHoursSettings | null): Draft {
  const row = (iv: BusinessInterval) => newRow(formatMinutes(iv.start), formatMinutes(iv.end));
  if (!settings) return { week: [1, 2, 3, 4, 5, 6, 7].map((d) => (d <= 5 ? [office()] : [])), special: [] };
  return {
    week: [1, 2, 3, 4, 5, 6, 7].map((d) => settings.week.filter((w) => w.weekday === d).map(row)),
    special: settings.special_days.flatMap((s) => s.intervals.map((iv) => ({ day: s.day, ...row(iv) }))),
  };
}

/**
 * Minutes of a row; an end not after the start runs into the next morning (00:00–00:00 is the whole day).
 * null = not a time.
 */
function minutesOf(row: TimeRow): BusinessInterval | null {
  const start = parseMinutes(row.start);
  const end = parseMinutes(row.end);
  if (start === null || end === null) return null;
  return { start, end: end > start ? end : end + 1440 };
}

function TimeRange({
  row,
  onChange,
  testId,
  error,
}: {
  row: TimeRow;
  onChange: (row: TimeRow) => void;
  testId: string;
  error?: string;
}) {
  const { t } = useTranslation();
  const iv = minutesOf(row);
  return (
    <Group gap={6} wrap="nowrap" align="flex-start">
      <TextInput
        type="time"
        aria-label={t('settings.businessHours.from')}
        value={row.start}
        onChange={(e) => onChange({ ...row, start: e.currentTarget.value })}
        w={132}
        data-testid={`${testId}-start`}
        error={error}
      />
      <Text pt={6}>–</Text>
      <Stack gap={0}>
        <TextInput
          type="time"
          aria-label={t('settings.businessHours.to')}
          value={row.end}
          onChange={(e) => onChange({ ...row, end: e.currentTarget.value })}
          w={132}
          data-testid={`${testId}-end`}
        />
        {iv && iv.end > 1440 && (
          <Text fz="xs" c="dimmed">
            {t('settings.businessHours.nextDay')}
          </Text>
        )}
      </Stack>
    </Group>
  );
}

export function BusinessHoursPanel({ spaceId, timezone }: { spaceId: number; timezone: string }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const message = useMessage();
  const answer = useBusinessHours(spaceId);
  const companies = (useCompanies().data ?? []).filter((c) => c.space_id === spaceId);
  const write = useBusinessHoursWrite();
  const [companyId, setCompanyId] = useState<number | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [error, setError] = useState<string | null>(null);
  const names = weekdayNames(locale);

  const stored =
    companyId === null
      ? (answer.data?.schedule ?? null)
      : (answer.data?.companies.find((c) => c.company_id === companyId) ?? null);
  const storedKey = JSON.stringify(stored);
  // A new target (space, company) or a saved answer resets the form to what is stored.
  // biome-ignore lint/correctness/useExhaustiveDependencies: storedKey stands for `stored`
  useEffect(() => {
    if (answer.data) setDraft(toDraft(stored ?? (companyId === null ? null : answer.data.schedule)));
    setError(null);
  }, [storedKey, companyId, answer.data === undefined]);

  const setDay = (index: number, rows: TimeRow[]) =>
    setDraft((d) => d && { ...d, week: d.week.map((r, i) => (i === index ? rows : r)) });

  const save = async () => {
    if (!draft) return;
    const week: BusinessHoursSettings['week'] = [];
    for (const [i, rows] of draft.week.entries()) {
      for (const row of rows) {
        const iv = minutesOf(row);
        if (!iv) return setError(message('field.invalid'));
        week.push({ weekday: i + 1, ...iv });
      }
    }
    const byDay = new Map<string, BusinessInterval[]>();
    for (const row of draft.special) {
      const iv = minutesOf(row);
      if (!row.day) return setError(message('field.required'));
      if (!iv) return setError(message('field.invalid'));
      byDay.set(row.day, [...(byDay.get(row.day) ?? []), iv]);
    }
    setError(null);
    try {
      await write.save.mutateAsync({
        space_id: spaceId,
        company_id: companyId,
        week,
        special_days: [...byDay.entries()].map(([day, intervals]) => ({ day, intervals })),
      });
      showSaved(t('settings.businessHours.saved'));
    } catch (failure) {
      showError(failure);
    }
  };

  const remove = async () => {
    try {
      await write.remove.mutateAsync({ space_id: spaceId, company_id: companyId });
      showSaved(t('settings.businessHours.removed'));
    } catch (failure) {
      showError(failure);
    }
  };

  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="md" data-testid="business-hours">
      <Stack gap="md">
        <div>
          <Title order={3} fz="lg">
            {t('settings.businessHours.title')}
          </Title>
          <Text fz="sm" c="dimmed">
            {t('settings.businessHours.hint', { timezone })}
          </Text>
        </div>
        {companies.length > 0 && (
          <Select
            label={t('settings.businessHours.target')}
            data={[
              { value: '', label: t('settings.businessHours.wholeSpace') },
              ...companies.map((c) => ({ value: String(c.id), label: c.name })),
            ]}
            value={companyId === null ? '' : String(companyId)}
            onChange={(v) => setCompanyId(v ? Number(v) : null)}
            allowDeselect={false}
            maw={360}
            data-testid="business-target"
          />
        )}
        <QueryState queries={[answer]}>
          {() =>
            !draft ? null : (
              <Stack gap="md">
                {companyId !== null && !stored && (
                  <Text fz="sm" c="dimmed">
                    {t('settings.businessHours.followsSpace')}
                  </Text>
                )}
                {companyId === null && !stored && (
                  <Text fz="sm" c="dimmed" data-testid="business-unset">
                    {t('settings.businessHours.unset')}
                  </Text>
                )}
                <Stack gap="xs">
                  {draft.week.map((rows, i) => (
                    <Group key={names[i]} align="flex-start" gap="sm" wrap="wrap">
                      <Checkbox
                        label={names[i]}
                        checked={rows.length > 0}
                        onChange={(e) => setDay(i, e.currentTarget.checked ? [office()] : [])}
                        w={150}
                        pt={6}
                        data-testid={`business-day-${i + 1}`}
                      />
                      <Stack gap={6}>
                        {rows.map((row, j) => (
                          <Group key={row.key} gap={6} wrap="nowrap" align="flex-start">
                            <TimeRange
                              row={row}
                              testId={`business-${i + 1}-${j}`}
                              onChange={(next) =>
                                setDay(
                                  i,
                                  rows.map((r, k) => (k === j ? next : r)),
                                )
                              }
                            />
                            <ActionIcon
                              variant="subtle"
                              color="gray"
                              mt={4}
                              aria-label={t('common.delete')}
                              onClick={() =>
                                setDay(
                                  i,
                                  rows.filter((_, k) => k !== j),
                                )
                              }
                            >
                              <IconTrash size={16} />
                            </ActionIcon>
                          </Group>
                        ))}
                        {rows.length > 0 && rows.length < 4 && (
                          <Button
                            variant="subtle"
                            size="compact-sm"
                            leftSection={<IconPlus size={14} />}
                            onClick={() => setDay(i, [...rows, newRow('', '')])}
                            w="fit-content"
                          >
                            {t('settings.businessHours.addInterval')}
                          </Button>
                        )}
                        {rows.length === 0 && (
                          <Text fz="sm" c="dimmed" pt={6}>
                            {t('settings.businessHours.dayOff')}
                          </Text>
                        )}
                      </Stack>
                    </Group>
                  ))}
                </Stack>
                <Stack gap="xs">
                  <Text fw={500} fz="sm">
                    {t('settings.businessHours.special')}
                  </Text>
                  <Text fz="xs" c="dimmed">
                    {t('settings.businessHours.specialHint')}
                  </Text>
                  {draft.special.map((row, j) => (
                    <Group key={row.key} gap={6} align="flex-start" wrap="wrap">
                      <TextInput
                        type="date"
                        aria-label={t('settings.holidays.day')}
                        value={row.day}
                        onChange={(e) => {
                          const day = e.currentTarget.value;
                          setDraft(
                            (d) =>
                              d && { ...d, special: d.special.map((r, k) => (k === j ? { ...r, day } : r)) },
                          );
                        }}
                        w={170}
                        data-testid={`business-special-${j}-day`}
                      />
                      <TimeRange
                        row={row}
                        testId={`business-special-${j}`}
                        onChange={(next) =>
                          setDraft(
                            (d) =>
                              d && {
                                ...d,
                                special: d.special.map((r, k) => (k === j ? { ...r, ...next } : r)),
                              },
                          )
                        }
                      />
                      <ActionIcon
                        variant="subtle"
                        color="gray"
                        mt={4}
                        aria-label={t('common.delete')}
                        onClick={() =>
                          setDraft((d) => d && { ...d, special: d.special.filter((_, k) => k !== j) })
                        }
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Group>
                  ))}
                  <Button
                    variant="light"
                    size="compact-sm"
                    w="fit-content"
                    leftSection={<IconPlus size={14} />}
                    onClick={() =>
                      setDraft(
                        (d) =>
                          d && { ...d, special: [...d.special, { ...newRow('10:00', '15:00'), day: '' }] },
                      )
                    }
                    data-testid="business-special-add"
                  >
                    {t('settings.businessHours.addSpecial')}
                  </Button>
                </Stack>
                {error && (
                  <Text c="red" fz="sm" role="alert">
                    {error}
                  </Text>
                )}
                <Group gap="sm">
                  <Button
                    onClick={() => void save()}
                    loading={write.save.isPending}
                    data-testid="business-save"
                  >
                    {t('common.save')}
                  </Button>
                  {stored && (
                    <Button
                      variant="subtle"
                      color="red"
                      onClick={() => void remove()}
                      loading={write.remove.isPending}
                    >
                      {companyId === null
                        ? t('settings.businessHours.remove')
                        : t('settings.businessHours.removeOverride')}
                    </Button>
                  )}
                </Group>
              </Stack>
            )
          }
        </QueryState>
      </Stack>
    </Paper>
  );
}

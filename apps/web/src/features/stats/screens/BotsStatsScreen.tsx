import { Anchor, Stack, Text } from '@mantine/core';
import type { BotStatsAnswer } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useBotStats } from '../../../api/bots';
import { QueryState } from '../../../components/QueryState';
import { Chart } from '../Chart';
import { numberColumn, valueColumn } from '../columns';
import { DataTable } from '../DataTable';
import { StatsBlock, type StatsFrame, StatsPage } from '../StatsPage';

// stats/bots (issue 17): per chat-bot, the conversations started in the period and how they ended
// (completed by the bot, handed off, dropped), and per bot a funnel of its steps: how many conversations
// reached each step and how many were dropped there. Definitions: docs/statistics.md "Chat-bots".

type BotRow = BotStatsAnswer['bots'][number];
type Step = BotRow['steps'][number];
const OUTCOMES = ['started', 'completed', 'handed_off', 'dropped', 'active'] as const;

function Funnel({ bot }: { bot: BotRow }) {
  const { t } = useTranslation();
  const label = (s: Step) =>
    `${s.step_id} · ${t(`settings.bots.types.${s.type}`)}${s.flow === 'off_hours' ? ` (${t('settings.bots.stats.offHoursFlow')})` : ''}`;
  const steps = bot.steps;
  const option = {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    legend: { bottom: 0 },
    grid: { left: 8, right: 16, bottom: 40, top: 8, containLabel: true },
    xAxis: { type: 'value', minInterval: 1 },
    yAxis: {
      type: 'category',
      inverse: true,
      data: steps.map(label),
      axisLabel: { width: 160, overflow: 'truncate' },
    },
    series: [
      { type: 'bar', name: t('settings.bots.stats.reached'), data: steps.map((s) => s.reached) },
      { type: 'bar', name: t('settings.bots.stats.droppedHere'), data: steps.map((s) => s.dropped) },
    ],
  };
  return (
    <StatsBlock title={t('settings.bots.stats.funnel', { name: bot.name })}>
      <Stack gap="sm">
        <Chart
          option={option}
          height={Math.max(160, steps.length * 44 + 60)}
          testId={`chart-bot-${bot.bot_id}`}
        />
        <DataTable
          testId={`table-bot-steps-${bot.bot_id}`}
          fileName={`bot-${bot.bot_id}-funnel`}
          rows={steps}
          columns={[
            valueColumn('step', t('settings.bots.stats.step'), label),
            numberColumn<Step>('reached', t('settings.bots.stats.reached'), (s) => s.reached),
            numberColumn<Step>('dropped', t('settings.bots.stats.droppedHere'), (s) => s.dropped),
          ]}
        />
      </Stack>
    </StatsBlock>
  );
}

function BotsStats({ frame }: { frame: StatsFrame }) {
  const { t } = useTranslation();
  const stats = useBotStats(frame.query);
  const list = stats.data?.bots ?? [];
  return (
    <QueryState queries={[stats]}>
      {() => (
        <Stack gap="md" data-testid="bots-stats">
          {list.length === 0 ? (
            <Text c="dimmed">{t('settings.bots.stats.none')}</Text>
          ) : (
            <>
              <StatsBlock title={t('settings.bots.stats.title')}>
                <DataTable
                  testId="table-bots"
                  fileName="bots"
                  rows={list}
                  columns={[
                    {
                      key: 'bot',
                      title: t('settings.bots.stats.bot'),
                      render: (r) => (
                        <Anchor component={Link} to={pathFor('settings-bot', { id: r.bot_id })} fz="sm">
                          {r.name}
                        </Anchor>
                      ),
                      csv: (r) => r.name,
                    },
                    ...OUTCOMES.map((k) =>
                      numberColumn<BotRow>(k, t(`settings.bots.stats.${k}`), (r) => r[k]),
                    ),
                  ]}
                />
              </StatsBlock>
              {list.map((bot) => (
                <Funnel key={bot.bot_id} bot={bot} />
              ))}
            </>
          )}
        </Stack>
      )}
    </QueryState>
  );
}

export default function BotsStatsScreen() {
  return <StatsPage tab="stats-bots">{(frame) => <BotsStats frame={frame} />}</StatsPage>;
}

import {
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  NumberInput,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import {
  RULE_ACTION_TYPES,
  RULE_ACTIONS_MAX,
  RULE_TRIGGERS,
  type RuleActionInput,
  type RuleActionType,
  type RuleDto,
  type RuleGroup,
  type RuleTrigger,
  ruleFormSchema,
} from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useCreateRule, useDryRun, useRuleMatches, useUpdateRule } from '../../../api/rules';
import { CancelSave, FormCard, FormPartTitle } from '../../../components/FormCard';
import { showError, showSaved } from '../../../components/notify';
import { PageHeader } from '../../../components/PageHeader';
import { useLiveErrors } from '../../../features/settings-kit/useLiveErrors';
import { useLocale } from '../../../i18n/useLocale';
import { formatDateTime } from '../../../lib/format';
import { ActionCards, AddActionSelect, useActionRows } from '../macros/ActionList';
import { ActionFields } from '../macros/MacroForm';
import { ConditionsEditor } from './ConditionsEditor';
import { isRuleOnly, RuleOnlyFields } from './RuleActionFields';

// The create/edit form of an auto-rule: name, trigger, order, pause and stop, the condition tree, the
// action list (the macro action editor) and the dry run, checked by the shared schema the server uses.

function blankAction(type: RuleActionType): RuleActionInput {
  switch (type) {
    case 'assign_round_robin':
      return { type, group_id: null as unknown as number, capacity: 10 };
    case 'private_reply':
      return { type, template_id: null as unknown as number };
    case 'notify':
      return { type, user_ids: [] };
    case 'webhook':
      return { type, webhook_id: null as unknown as number };
    case 'ai_reply':
      return { type, agent_id: null as unknown as number, mode: 'send', fallback_text: '' };
    case 'reply_template':
      return { type, template_id: null as unknown as number };
    case 'tag':
    case 'untag':
      return { type, tag_ids: [] };
    case 'snooze':
      return { type, preset: '1d' };
    case 'assign':
      return { type, user_id: null };
    case 'set_status':
      return { type, status: 'inprogress' };
    case 'create_task':
      return { type, title: '' };
    case 'block_author':
      return { type, duration: 'week' };
    default:
      return { type } as RuleActionInput;
  }
}

export function RuleForm({ rule, spaceId }: { rule?: RuleDto; spaceId: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateRule();
  const update = useUpdateRule();
  const [name, setName] = useState(rule?.name ?? '');
  const [trigger, setTrigger] = useState<RuleTrigger>(rule?.trigger ?? 'item_created');
  const [minutes, setMinutes] = useState<number | null>(rule?.minutes ?? null);
  const [position, setPosition] = useState<number>(rule?.position ?? 0);
  const [paused, setPaused] = useState(rule?.paused ?? false);
  const [stop, setStop] = useState(rule?.stop_processing ?? false);
  const [conditions, setConditions] = useState<RuleGroup>(rule?.conditions ?? { all: [] });
  const list = useActionRows((rule?.actions ?? []) as RuleActionInput[]);

  const values = {
    name,
    trigger,
    minutes: trigger === 'no_reply' || trigger === 'waiting_customer' ? minutes : null,
    conditions,
    actions: list.actions,
    paused,
    stop_processing: stop,
    position,
  };
  // An issue without a path is the condition tree's (an empty group).
  const { errors, check, onError, showErrors } = useLiveErrors(ruleFormSchema, values, 'conditions');

  const submit = () => {
    const data = check();
    if (!data) return;
    const done = {
      onSuccess: () => {
        showSaved(t('settings.rules.saved'));
        navigate(pathFor('settings-rules', {}, { space_id: spaceId }));
      },
      onError,
    };
    if (rule) update.mutate({ id: rule.id, ...data }, done);
    else create.mutate({ ...data, space_id: spaceId }, done);
  };

  return (
    <Stack gap="lg" maw={820}>
      <PageHeader title={rule ? rule.name : t('settings.rules.newTitle')} />
      <FormCard onSubmit={submit}>
        <TextInput
          label={t('settings.rules.name')}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={errors.name}
          maxLength={120}
          data-testid="rule-name"
        />
        <Group grow align="flex-start">
          <Select
            label={t('settings.rules.trigger')}
            data={RULE_TRIGGERS.map((v) => ({ value: v, label: t(`settings.rules.triggers.${v}`) }))}
            value={trigger}
            onChange={(v) => v && setTrigger(v as RuleTrigger)}
            allowDeselect={false}
            data-testid="rule-trigger"
          />
          {trigger === 'no_reply' && (
            <NumberInput
              label={t('settings.rules.minutes')}
              value={minutes ?? ''}
              onChange={(v) => setMinutes(typeof v === 'number' ? v : null)}
              min={1}
              error={errors.minutes}
              data-testid="rule-minutes"
            />
          )}
          {trigger === 'waiting_customer' && (
            // Kept as minutes (hours × 60), entered in hours.
            <NumberInput
              label={t('settings.rules.hours')}
              value={minutes === null ? '' : minutes / 60}
              onChange={(v) => setMinutes(typeof v === 'number' ? Math.round(v * 60) : null)}
              min={1}
              max={720}
              allowDecimal={false}
              error={errors.minutes}
              data-testid="rule-hours"
            />
          )}
          <NumberInput
            label={t('settings.rules.position')}
            description={t('settings.rules.positionHint')}
            value={position}
            onChange={(v) => setPosition(typeof v === 'number' ? v : 0)}
            min={0}
            max={10_000}
            error={errors.position}
          />
        </Group>
        <Checkbox
          label={t('settings.rules.pausedField')}
          checked={paused}
          onChange={(e) => setPaused(e.currentTarget.checked)}
          data-testid="rule-paused"
        />
        <Checkbox
          label={t('settings.rules.stopProcessing')}
          checked={stop}
          onChange={(e) => setStop(e.currentTarget.checked)}
        />

        <FormPartTitle
          title={t('settings.rules.conditions')}
          hint={t('settings.rules.conditionsHint')}
          error={errors.conditions}
        />
        <ConditionsEditor value={conditions} onChange={setConditions} spaceId={spaceId} errors={errors} />

        <FormPartTitle
          title={t('settings.rules.actions')}
          hint={t('settings.rules.actionsHint')}
          error={errors.actions}
        />
        <ActionCards
          list={list}
          ns="settings.rules"
          testId="rule-action"
          fields={(action, prefix, set) =>
            action.type === 'close' ? (
              <Text fz="xs" c="dimmed" mt={4}>
                {t('settings.rules.closeHint')}
              </Text>
            ) : isRuleOnly(action) ? (
              <RuleOnlyFields
                action={action}
                spaceId={spaceId}
                errors={errors}
                prefix={prefix}
                onChange={set}
              />
            ) : (
              <ActionFields
                action={action}
                spaceId={spaceId}
                disabled={false}
                errors={errors}
                prefix={prefix}
                onChange={set}
              />
            )
          }
        />
        {list.rows.length < RULE_ACTIONS_MAX && (
          <AddActionSelect
            label={t('settings.rules.addAction')}
            types={RULE_ACTION_TYPES}
            testId="rule-add-action"
            onAdd={(type) => list.add(blankAction(type))}
          />
        )}

        <CancelSave
          cancelTo={pathFor('settings-rules', {}, { space_id: spaceId })}
          cancelLabel={t('settings.rules.cancel')}
          saveLabel={t('settings.rules.save')}
          saving={create.isPending || update.isPending}
          saveTestId="rule-save"
        />
      </FormCard>
      <DryRunPanel spaceId={spaceId} ruleId={rule?.id ?? null} values={() => values} onInvalid={showErrors} />
      {rule && <RecentRuns ruleId={rule.id} />}
    </Stack>
  );
}

/** Dry run: which of the last 1,000 items the rule as it stands in the form would match, and what it would do. */
function DryRunPanel({
  spaceId,
  ruleId,
  values,
  onInvalid,
}: {
  spaceId: number;
  ruleId: number | null;
  values: () => unknown;
  onInvalid: () => void;
}) {
  const { t } = useTranslation();
  const dry = useDryRun();
  const run = () => {
    const parsed = ruleFormSchema.safeParse(values());
    if (!parsed.success) {
      onInvalid();
      return;
    }
    dry.mutate({ ...parsed.data, space_id: spaceId, rule_id: ruleId }, { onError: (e) => showError(e) });
  };
  const result = dry.data;
  return (
    <Paper withBorder radius="md" p="md" data-testid="rule-dry-run">
      <Stack gap="sm">
        <Group justify="space-between">
          <Text fw={600}>{t('settings.rules.dryRun.title')}</Text>
          <Button variant="default" onClick={run} loading={dry.isPending} data-testid="rule-dry-run-start">
            {t('settings.rules.dryRun.run')}
          </Button>
        </Group>
        <Text fz="xs" c="dimmed">
          {t('settings.rules.dryRun.hint')}
        </Text>
        {result && (
          <>
            <Text fz="sm" data-testid="rule-dry-run-summary">
              {t('settings.rules.dryRun.result', { looked: result.looked_at, matched: result.matched })}
            </Text>
            {result.items.length === 0 ? (
              <Text fz="sm" c="dimmed">
                {t('settings.rules.dryRun.none')}
              </Text>
            ) : (
              <Stack gap={4}>
                {result.items.slice(0, 100).map((item) => (
                  <Paper key={item.item_id} withBorder radius="sm" p="xs" data-testid="rule-dry-run-item">
                    <Group justify="space-between" wrap="nowrap" gap="xs">
                      <Text fz="sm" truncate="end" miw={0}>
                        {item.excerpt || '—'}
                      </Text>
                      <Anchor component={Link} to={pathFor('item', { id: item.item_id })} fz="xs">
                        {t('settings.rules.dryRun.open')}
                      </Anchor>
                    </Group>
                    {item.actions && (
                      <Group gap={4} mt={4}>
                        {item.actions
                          .map((a, pos) => ({ ...a, pos }))
                          .map((a) => (
                            <Badge
                              key={a.pos}
                              size="sm"
                              variant="light"
                              color={a.outcome === 'skip' || a.outcome === 'unavailable' ? 'gray' : 'blue'}
                              title={a.message}
                            >
                              {t(`settings.macros.types.${a.type as RuleActionType}`)}:{' '}
                              {t(`settings.rules.dryRun.outcome.${a.outcome}`)}
                            </Badge>
                          ))}
                      </Group>
                    )}
                  </Paper>
                ))}
              </Stack>
            )}
          </>
        )}
      </Stack>
    </Paper>
  );
}

/** The items the rule ran on, newest first, with how each run went (the stats drill-down). */
function RecentRuns({ ruleId }: { ruleId: number }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const runs = useRuleMatches(ruleId);
  const list = runs.data?.items ?? [];
  return (
    <Paper withBorder radius="md" p="md" data-testid="rule-runs">
      <Stack gap="sm">
        <Text fw={600}>{t('settings.rules.runs.title')}</Text>
        {runs.isSuccess && list.length === 0 && (
          <Text fz="sm" c="dimmed">
            {t('settings.rules.runs.empty')}
          </Text>
        )}
        {list.map((run) => (
          <Paper key={run.item_id} withBorder radius="sm" p="xs" data-testid="rule-run">
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <Group gap="xs" wrap="nowrap" miw={0}>
                <Badge
                  size="sm"
                  // Shades dark enough for white text (WCAG AA).
                  color={run.status === 'failed' ? 'red.9' : run.status === 'ok' ? 'teal.9' : 'gray.7'}
                  style={{ flexShrink: 0 }}
                >
                  {t(`settings.rules.runs.status.${run.status}`)}
                </Badge>
                <Text fz="sm" truncate="end" miw={0}>
                  {run.excerpt || '—'}
                </Text>
              </Group>
              <Anchor
                component={Link}
                to={pathFor('item', { id: run.item_id })}
                fz="xs"
                style={{ flexShrink: 0 }}
              >
                {t('settings.rules.runs.open')}
              </Anchor>
            </Group>
            <Text fz="xs" c={run.error ? 'red' : 'dimmed'}>
              {[formatDateTime(Date.parse(run.at) / 1000, locale), run.error].filter(Boolean).join(' · ')}
            </Text>
          </Paper>
        ))}
      </Stack>
    </Paper>
  );
}

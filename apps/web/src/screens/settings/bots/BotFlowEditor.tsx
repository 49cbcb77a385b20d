import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Menu,
  Paper,
  Select,
  Stack,
  TagsInput,
  Text,
  Textarea,
  TextInput,
  Tooltip,
} from '@mantine/core';
import {
  BOT_FIELDS,
  BOT_OPTIONS_MAX,
  BOT_STEP_TYPES,
  BOT_STEPS_MAX,
  type BotField,
  type BotStepInput,
  type BotStepType,
} from '@otklik/shared';
import { IconArrowDown, IconArrowUp, IconPlus, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useWebhooks } from '../../../api/apiAccess';
import { useTemplates } from '../../../api/templates';
import { IdSelect, spaceOptions, templateLabel, webhookOption } from '../../../components/IdSelect';
import { useInboxData } from '../../../features/inbox/hooks/useInboxData';
import { useShell } from '../../../shell/ShellContext';

// The step editor of a chat-bot's flow (issue 17): an ordered list of steps, each with its own fields.

export type Errors = Record<string, string>;
export type Flow = 'steps' | 'off_hours_steps';

// Stable React keys for steps and options while they are edited, moved and removed: an edit makes a new
// object, which carries its predecessor's key.
const keys = new WeakMap<object, number>();
let keySeq = 0;
function keyOf(o: object): number {
  let key = keys.get(o);
  if (key === undefined) {
    keySeq += 1;
    key = keySeq;
    keys.set(o, key);
  }
  return key;
}
function carry<T extends object>(from: object, to: T): T {
  keys.set(to, keyOf(from));
  return to;
}

function freshId(type: BotStepType, taken: string[]) {
  for (let n = 1; ; n++) {
    const id = `${type}-${n}`;
    if (!taken.includes(id)) return id;
  }
}

function blankStep(type: BotStepType, id: string): BotStepInput {
  switch (type) {
    case 'message':
      return { id, type, text: '' };
    case 'menu':
      return { id, type, text: '', options: [{ label: '', keywords: [] }], retry_text: '' };
    case 'collect':
      return { id, type, text: '', field: 'phone', retry_text: '' };
    case 'template':
      return { id, type, template_id: null as unknown as number };
    case 'webhook':
      return { id, type, url: '' };
    case 'ai':
      return { id, type, agent_id: null as unknown as number, fallback_text: '' };
    case 'handoff':
      return { id, type, text: '', user_id: null };
  }
}

export function FlowEditor({
  title,
  hint,
  flow,
  steps,
  onChange,
  errors,
  spaceId,
}: {
  title: string;
  hint: string;
  flow: Flow;
  steps: BotStepInput[];
  onChange: (steps: BotStepInput[]) => void;
  errors: Errors;
  spaceId: number;
}) {
  const { t } = useTranslation();
  const ids = steps.map((s) => s.id);
  const set = (index: number, step: BotStepInput) =>
    onChange(steps.map((s, i) => (i === index ? carry(s, step) : s)));
  const move = (index: number, by: -1 | 1) => {
    const next = [...steps];
    const [row] = next.splice(index, 1);
    next.splice(index + by, 0, row!);
    onChange(next);
  };
  return (
    <Paper withBorder radius="md" p="md" data-testid={`bot-flow-${flow}`}>
      <Stack gap="sm">
        <div>
          <Text fw={600}>{title}</Text>
          <Text fz="xs" c="dimmed">
            {hint}
          </Text>
          {errors[flow] && (
            <Text fz="xs" c="red" role="alert">
              {errors[flow]}
            </Text>
          )}
        </div>
        {steps.map((step, index) => (
          <Paper
            key={keyOf(step)}
            withBorder
            radius="sm"
            p="sm"
            bg="var(--mantine-color-gray-0)"
            data-testid="bot-step"
          >
            <Stack gap="xs">
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Group gap="xs" wrap="nowrap" miw={0}>
                  <Text fz="sm" c="dimmed">
                    {index + 1}.
                  </Text>
                  <Badge variant="light" style={{ flexShrink: 1, minWidth: 0 }}>
                    {t(`settings.bots.types.${step.type}`)}
                  </Badge>
                </Group>
                <Group gap={4} wrap="nowrap">
                  <Tooltip label={t('settings.bots.moveUp')}>
                    <ActionIcon
                      variant="subtle"
                      disabled={index === 0}
                      onClick={() => move(index, -1)}
                      aria-label={t('settings.bots.moveUp')}
                    >
                      <IconArrowUp size={16} />
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label={t('settings.bots.moveDown')}>
                    <ActionIcon
                      variant="subtle"
                      disabled={index === steps.length - 1}
                      onClick={() => move(index, 1)}
                      aria-label={t('settings.bots.moveDown')}
                    >
                      <IconArrowDown size={16} />
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label={t('settings.bots.remove')}>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      onClick={() => onChange(steps.filter((_, i) => i !== index))}
                      aria-label={t('settings.bots.remove')}
                      data-testid="bot-step-remove"
                    >
                      <IconX size={16} />
                    </ActionIcon>
                  </Tooltip>
                </Group>
              </Group>
              <StepFields
                step={step}
                onChange={(s) => set(index, s)}
                ids={ids}
                prefix={`${flow}.${index}`}
                errors={errors}
                spaceId={spaceId}
              />
            </Stack>
          </Paper>
        ))}
        <Menu position="bottom-start">
          <Menu.Target>
            <Button
              variant="light"
              leftSection={<IconPlus size={16} />}
              disabled={steps.length >= BOT_STEPS_MAX}
              style={{ alignSelf: 'flex-start' }}
              data-testid={`bot-add-step-${flow}`}
            >
              {t('settings.bots.addStep')}
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {BOT_STEP_TYPES.map((type) => (
              <Menu.Item
                key={type}
                onClick={() => onChange([...steps, blankStep(type, freshId(type, ids))])}
                data-testid={`bot-add-${type}`}
              >
                {t(`settings.bots.types.${type}`)}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      </Stack>
    </Paper>
  );
}

function StepFields({
  step,
  onChange,
  ids,
  prefix,
  errors,
  spaceId,
}: {
  step: BotStepInput;
  onChange: (step: BotStepInput) => void;
  ids: string[];
  prefix: string;
  errors: Errors;
  spaceId: number;
}) {
  const { t } = useTranslation();
  const data = useInboxData();
  const { objects } = useShell();
  const templates = useTemplates(step.type === 'template');
  const webhooks = useWebhooks(step.type === 'webhook' ? spaceId : null);
  const nextChoices = [
    { value: '', label: t('settings.bots.nextDefault') },
    ...ids.filter((id) => id !== step.id).map((id) => ({ value: id, label: id })),
  ];
  const nextSelect = (
    value: string | null | undefined,
    set: (next: string | null) => void,
    label?: string,
  ) => (
    <Select
      label={label ?? t('settings.bots.next')}
      data={nextChoices}
      value={value ?? ''}
      onChange={(v) => set(v ? v : null)}
      allowDeselect={false}
      size="xs"
      error={errors[`${prefix}.next`]}
    />
  );
  const idInput = (
    <TextInput
      label={t('settings.bots.stepId')}
      description={t('settings.bots.stepIdHint')}
      value={step.id}
      onChange={(e) => onChange({ ...step, id: e.currentTarget.value })}
      maxLength={40}
      size="xs"
      error={errors[`${prefix}.id`]}
    />
  );
  const textArea = (
    value: string | undefined,
    set: (text: string) => void,
    label = t('settings.bots.text'),
  ) => (
    <Textarea
      label={label}
      value={value ?? ''}
      onChange={(e) => set(e.currentTarget.value)}
      autosize
      minRows={2}
      maxLength={1000}
      error={errors[`${prefix}.text`]}
      data-testid="bot-step-text"
    />
  );
  // Most steps end with their id and the step that comes next.
  const idAndNext = (next: string | null | undefined, set: (next: string | null) => void) => (
    <Group grow align="flex-start">
      {idInput}
      {nextSelect(next, set)}
    </Group>
  );
  const stepError = errors[prefix];
  const body = (() => {
    switch (step.type) {
      case 'message':
        return (
          <>
            {textArea(step.text, (text) => onChange({ ...step, text }))}
            {idAndNext(step.next, (next) => onChange({ ...step, next }))}
          </>
        );
      case 'menu':
        return (
          <>
            {textArea(step.text, (text) => onChange({ ...step, text }))}
            <Text fz="sm" fw={500}>
              {t('settings.bots.options')}
            </Text>
            {errors[`${prefix}.options`] && (
              <Text fz="xs" c="red">
                {errors[`${prefix}.options`]}
              </Text>
            )}
            {step.options.map((option, i) => {
              const setOption = (patch: Partial<typeof option>) =>
                onChange({
                  ...step,
                  options: step.options.map((o, j) => (j === i ? { ...o, ...patch } : o)),
                });
              return (
                <Paper key={keyOf(option)} withBorder radius="sm" p="xs" data-testid="bot-option">
                  <Group align="flex-start" wrap="wrap" gap="xs">
                    <Text fz="sm" c="dimmed" mt={26}>
                      {i + 1}.
                    </Text>
                    <TextInput
                      label={t('settings.bots.optionLabel')}
                      value={option.label}
                      onChange={(e) => setOption({ label: e.currentTarget.value })}
                      maxLength={60}
                      size="xs"
                      style={{ flex: '1 1 160px' }}
                      error={errors[`${prefix}.options.${i}.label`]}
                      data-testid="bot-option-label"
                    />
                    <TagsInput
                      label={t('settings.bots.keywords')}
                      description={t('settings.bots.keywordsHint')}
                      value={option.keywords ?? []}
                      onChange={(keywords) => setOption({ keywords })}
                      size="xs"
                      style={{ flex: '1 1 160px' }}
                    />
                    <div style={{ flex: '1 1 140px' }}>
                      {nextSelect(option.next, (next) => setOption({ next }))}
                    </div>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      mt={24}
                      disabled={step.options.length === 1}
                      onClick={() => onChange({ ...step, options: step.options.filter((_, j) => j !== i) })}
                      aria-label={t('settings.bots.removeOption')}
                    >
                      <IconX size={16} />
                    </ActionIcon>
                  </Group>
                </Paper>
              );
            })}
            <Button
              variant="subtle"
              size="xs"
              leftSection={<IconPlus size={14} />}
              disabled={step.options.length >= BOT_OPTIONS_MAX}
              onClick={() => onChange({ ...step, options: [...step.options, { label: '', keywords: [] }] })}
              style={{ alignSelf: 'flex-start' }}
              data-testid="bot-add-option"
            >
              {t('settings.bots.addOption')}
            </Button>
            <Group grow align="flex-start">
              {idInput}
              <TextInput
                label={t('settings.bots.retryText')}
                placeholder={t('settings.bots.retryHint')}
                value={step.retry_text ?? ''}
                onChange={(e) => onChange({ ...step, retry_text: e.currentTarget.value })}
                size="xs"
              />
            </Group>
          </>
        );
      case 'collect':
        return (
          <>
            <Select
              label={t('settings.bots.field')}
              data={BOT_FIELDS.map((f) => ({ value: f, label: t(`settings.bots.fields.${f}`) }))}
              value={step.field}
              onChange={(v) => v && onChange({ ...step, field: v as BotField })}
              allowDeselect={false}
              data-testid="bot-step-field"
            />
            {textArea(step.text, (text) => onChange({ ...step, text }))}
            <TextInput
              label={t('settings.bots.retryText')}
              placeholder={t('settings.bots.retryHint')}
              value={step.retry_text ?? ''}
              onChange={(e) => onChange({ ...step, retry_text: e.currentTarget.value })}
              size="xs"
            />
            {idAndNext(step.next, (next) => onChange({ ...step, next }))}
          </>
        );
      case 'template':
        return (
          <>
            <IdSelect
              label={t('settings.bots.template')}
              placeholder={t('settings.bots.templatePick')}
              data={spaceOptions(
                templates.data?.items.filter((x) => x.user_id === null),
                spaceId,
                templateLabel,
              )}
              value={step.template_id}
              onChange={(id) => onChange({ ...step, template_id: id ?? (null as unknown as number) })}
              searchable
              error={errors[`${prefix}.template_id`]}
            />
            {idAndNext(step.next, (next) => onChange({ ...step, next }))}
          </>
        );
      case 'webhook':
        return (
          <>
            <IdSelect
              label={t('settings.bots.webhook')}
              placeholder={t('settings.bots.webhookPick')}
              description={t('settings.bots.webhookHint')}
              data={(webhooks.data?.items ?? []).filter((w) => w.space_id === spaceId).map(webhookOption)}
              value={step.webhook_id}
              onChange={(webhook_id) => onChange({ ...step, webhook_id })}
              clearable
              searchable
              error={errors[`${prefix}.webhook_id`]}
              data-testid="bot-step-webhook"
            />
            <TextInput
              label={t('settings.bots.url')}
              description={t('settings.bots.urlHint')}
              placeholder="https://"
              value={step.url}
              onChange={(e) => onChange({ ...step, url: e.currentTarget.value })}
              error={errors[`${prefix}.url`]}
            />
            {idAndNext(step.next, (next) => onChange({ ...step, next }))}
          </>
        );
      case 'ai':
        return (
          <>
            <IdSelect
              label={t('settings.bots.aiAgent')}
              placeholder={t('settings.bots.aiAgentPick')}
              description={t('settings.bots.aiHint')}
              data={spaceOptions(objects?.ai_agents, spaceId, (a) => a.name)}
              value={step.agent_id}
              onChange={(id) => onChange({ ...step, agent_id: id ?? (null as unknown as number) })}
              error={errors[`${prefix}.agent_id`]}
              data-testid="bot-step-ai-agent"
            />
            {textArea(
              step.fallback_text,
              (fallback_text) => onChange({ ...step, fallback_text }),
              t('settings.bots.aiFallback'),
            )}
            {idAndNext(step.next, (next) => onChange({ ...step, next }))}
          </>
        );
      case 'handoff':
        return (
          <>
            {textArea(step.text, (text) => onChange({ ...step, text }))}
            <Group grow align="flex-start">
              {idInput}
              <Select
                label={t('settings.bots.assignTo')}
                data={[
                  { value: 'none', label: t('settings.bots.assignNobody') },
                  ...spaceOptions(data.members, spaceId, (m) => m.name),
                ]}
                value={step.user_id ? String(step.user_id) : 'none'}
                onChange={(v) => onChange({ ...step, user_id: !v || v === 'none' ? null : Number(v) })}
                allowDeselect={false}
                searchable
                size="xs"
              />
            </Group>
          </>
        );
    }
  })();
  return (
    <Stack gap="xs">
      {body}
      {stepError && (
        <Text fz="xs" c="red" role="alert">
          {stepError}
        </Text>
      )}
    </Stack>
  );
}

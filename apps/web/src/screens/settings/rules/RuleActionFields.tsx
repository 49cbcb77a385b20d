import { NumberInput, SegmentedControl, Stack, Text, Textarea } from '@mantine/core';
import {
  AI_FALLBACK_MAX,
  can,
  RULE_AI_MODES,
  RULE_CAPACITY_MAX,
  type RuleActionInput,
  type RuleOnlyActionInput,
} from '@otklik/shared';
import { useTranslation } from 'react-i18next';
import { useWebhooks } from '../../../api/apiAccess';
import { useUserGroups } from '../../../api/settings';
import { useTemplates } from '../../../api/templates';
import {
  IdMultiSelect,
  IdSelect,
  spaceOptions,
  templateLabel,
  webhookOption,
} from '../../../components/IdSelect';
import { useInboxData } from '../../../features/inbox/hooks/useInboxData';
import { useShell } from '../../../shell/ShellContext';

// The fields of the actions only auto-rules have (issue 17): round-robin assignment, a private reply,
// notifying users, calling a webhook and replying with an AI agent's answer (issue 21). The macro actions keep the macro form's editor (ActionFields).

type Errors = Record<string, string>;

const RULE_ONLY = ['assign_round_robin', 'private_reply', 'notify', 'webhook', 'ai_reply'];

export const isRuleOnly = (action: RuleActionInput): action is RuleOnlyActionInput =>
  RULE_ONLY.includes(action.type);

export function RuleOnlyFields({
  action,
  spaceId,
  errors,
  prefix,
  onChange,
}: {
  action: RuleOnlyActionInput;
  spaceId: number;
  errors: Errors;
  prefix: string;
  onChange: (action: RuleOnlyActionInput) => void;
}) {
  const { t } = useTranslation();
  const { actor, objects } = useShell();
  const data = useInboxData();
  const groups = useUserGroups();
  const templates = useTemplates(action.type === 'private_reply' && can(actor, 'templates.use', spaceId));
  const webhooks = useWebhooks(action.type === 'webhook' ? spaceId : null);
  const none = null as unknown as number;
  switch (action.type) {
    case 'assign_round_robin':
      return (
        <Stack gap={4} mt="xs">
          <IdSelect
            label={t('settings.rules.group')}
            placeholder={t('settings.rules.groupPick')}
            data={spaceOptions(groups.data, spaceId, (g) => g.name)}
            value={action.group_id}
            onChange={(id) => onChange({ ...action, group_id: id ?? none })}
            searchable
            error={errors[`${prefix}.group_id`]}
            data-testid="rule-group"
          />
          <NumberInput
            label={t('settings.rules.capacity')}
            description={t('settings.rules.capacityHint')}
            value={action.capacity}
            min={1}
            max={RULE_CAPACITY_MAX}
            allowDecimal={false}
            onChange={(v) => onChange({ ...action, capacity: typeof v === 'number' ? v : none })}
            error={errors[`${prefix}.capacity`]}
            data-testid="rule-capacity"
          />
        </Stack>
      );
    case 'private_reply':
      return (
        <Stack gap={4} mt="xs">
          <IdSelect
            label={t('settings.macros.template')}
            placeholder={t('settings.macros.templatePick')}
            data={spaceOptions(templates.data?.items, spaceId, templateLabel)}
            value={action.template_id}
            onChange={(id) => onChange({ ...action, template_id: id ?? none })}
            searchable
            error={errors[`${prefix}.template_id`]}
            data-testid="rule-private-template"
          />
          <Text fz="xs" c="dimmed">
            {t('settings.rules.privateReplyHint')}
          </Text>
        </Stack>
      );
    case 'notify':
      return (
        <IdMultiSelect
          mt="xs"
          label={t('settings.rules.notifyUsers')}
          description={t('settings.rules.notifyHint')}
          data={spaceOptions(data.members, spaceId, (m) => m.name)}
          value={action.user_ids}
          onChange={(user_ids) => onChange({ ...action, user_ids })}
          searchable
          error={errors[`${prefix}.user_ids`]}
          data-testid="rule-notify-users"
        />
      );
    case 'webhook':
      return (
        <IdSelect
          mt="xs"
          label={t('settings.rules.webhook')}
          placeholder={t('settings.rules.webhookPick')}
          description={t('settings.rules.webhookHint')}
          data={(webhooks.data?.items ?? []).filter((w) => w.space_id === spaceId).map(webhookOption)}
          value={action.webhook_id}
          onChange={(id) => onChange({ ...action, webhook_id: id ?? none })}
          searchable
          error={errors[`${prefix}.webhook_id`]}
          data-testid="rule-webhook"
        />
      );
    case 'ai_reply':
      return (
        <Stack gap={4} mt="xs">
          <IdSelect
            label={t('settings.rules.aiAgent')}
            placeholder={t('settings.rules.aiAgentPick')}
            data={spaceOptions(objects?.ai_agents, spaceId, (a) => a.name)}
            value={action.agent_id}
            onChange={(id) => onChange({ ...action, agent_id: id ?? none })}
            error={errors[`${prefix}.agent_id`]}
            data-testid="rule-ai-agent"
          />
          <SegmentedControl
            mt={4}
            data={RULE_AI_MODES.map((mode) => ({ value: mode, label: t(`settings.rules.aiModes.${mode}`) }))}
            value={action.mode ?? 'send'}
            onChange={(v) => onChange({ ...action, mode: v as (typeof RULE_AI_MODES)[number] })}
            data-testid="rule-ai-mode"
          />
          <Textarea
            label={t('settings.rules.aiFallback')}
            description={t('settings.rules.aiFallbackHint')}
            value={action.fallback_text ?? ''}
            maxLength={AI_FALLBACK_MAX}
            autosize
            minRows={2}
            onChange={(e) => onChange({ ...action, fallback_text: e.currentTarget.value })}
            error={errors[`${prefix}.fallback_text`]}
            data-testid="rule-ai-fallback"
          />
          <Text fz="xs" c="dimmed">
            {t('settings.rules.aiHint')}
          </Text>
        </Stack>
      );
  }
}

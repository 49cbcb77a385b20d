import {
  ActionIcon,
  Button,
  Checkbox,
  Group,
  MultiSelect,
  NumberInput,
  type NumberInputProps,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  TagsInput,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import {
  CONTENT_KINDS,
  EMOTION_CHOICES,
  type EmotionChoice,
  isProviderId,
  isRuleGroup,
  providers,
  RULE_CONDITION_TYPES,
  RULE_DEPTH_MAX,
  RULE_LANGUAGES,
  type RuleConditionType,
  type RuleGroup,
  type RuleLanguage,
  type RuleLeaf,
  type RuleNode,
} from '@otklik/shared';
import { IconPlus, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useObjects } from '../../../api/config';
import { IdMultiSelect, spaceOptions } from '../../../components/IdSelect';
import { useInboxData } from '../../../features/inbox/hooks/useInboxData';

// The condition tree of an auto-rule: a group ("all" or "any") of conditions and nested groups, up to
// RULE_DEPTH_MAX levels, each condition with its own fields and a "not" switch.

type Errors = Record<string, string>;

/** A new condition with its fields empty (the shared schema names what is missing). */
function blankLeaf(type: RuleConditionType): RuleLeaf {
  switch (type) {
    case 'text_contains':
      return { type, values: [] };
    case 'regex':
      return { type, pattern: '' };
    case 'network':
      return { type, providers: [] };
    case 'account':
      return { type, object_ids: [] };
    case 'company':
      return { type, company_ids: [] };
    case 'kind':
      return { type, kinds: [] };
    case 'rating':
      return { type, min: 1, max: 2 };
    case 'tag':
      return { type, tag_ids: [] };
    case 'author_items':
      return { type, min: 1, max: 1 };
    case 'author_label':
      return { type, label_ids: [] };
    case 'post_contains':
      return { type, values: [] };
    case 'sentiment':
      return { type, values: [] };
    case 'language':
      return { type, languages: [] };
    default:
      return { type } as RuleLeaf;
  }
}

const childrenOf = (group: RuleGroup): RuleNode[] => ('all' in group ? group.all : group.any);
const withChildren = (group: RuleGroup, list: RuleNode[]): RuleGroup =>
  'all' in group ? { all: list } : { any: list };

export function ConditionsEditor({
  value,
  onChange,
  spaceId,
  errors,
  disabled = false,
  path = 'conditions',
  depth = 1,
}: {
  value: RuleGroup;
  onChange: (group: RuleGroup) => void;
  spaceId: number;
  errors: Errors;
  disabled?: boolean;
  path?: string;
  depth?: number;
}) {
  const { t } = useTranslation();
  const list = childrenOf(value);
  const key = 'all' in value ? 'all' : 'any';
  const set = (index: number, node: RuleNode) =>
    onChange(
      withChildren(
        value,
        list.map((n, i) => (i === index ? node : n)),
      ),
    );
  return (
    <Paper withBorder radius="sm" p="sm" data-testid="rule-group">
      <Stack gap="xs">
        <SegmentedControl
          size="xs"
          value={key}
          disabled={disabled}
          onChange={(mode) => onChange(mode === 'all' ? { all: list } : { any: list })}
          data={[
            { value: 'all', label: t('settings.rules.matchAll') },
            { value: 'any', label: t('settings.rules.matchAny') },
          ]}
          style={{ alignSelf: 'flex-start' }}
          data-testid="rule-group-mode"
        />
        {list.map((node, index) => {
          const at = `${path}.${key}.${index}`;
          const remove = (
            <Tooltip key="remove" label={t('settings.rules.removeCondition')}>
              <ActionIcon
                variant="subtle"
                color="red"
                disabled={disabled}
                onClick={() =>
                  onChange(
                    withChildren(
                      value,
                      list.filter((_, i) => i !== index),
                    ),
                  )
                }
                aria-label={t('settings.rules.removeCondition')}
              >
                <IconX size={16} />
              </ActionIcon>
            </Tooltip>
          );
          return isRuleGroup(node) ? (
            <Group key={at} align="flex-start" wrap="nowrap" gap="xs">
              <div style={{ flex: 1, minWidth: 0 }}>
                <ConditionsEditor
                  value={node}
                  onChange={(g) => set(index, g)}
                  spaceId={spaceId}
                  errors={errors}
                  disabled={disabled}
                  path={at}
                  depth={depth + 1}
                />
              </div>
              {remove}
            </Group>
          ) : (
            <Paper key={at} withBorder radius="sm" p="xs" data-testid="rule-condition">
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                <Group gap="xs" wrap="nowrap">
                  <Checkbox
                    size="xs"
                    label={t('settings.rules.negate')}
                    checked={node.negate ?? false}
                    disabled={disabled}
                    onChange={(e) => set(index, { ...node, negate: e.currentTarget.checked || undefined })}
                  />
                  <Text fz="sm" fw={500}>
                    {t(`settings.rules.conditionTypes.${node.type}`)}
                  </Text>
                </Group>
                {remove}
              </Group>
              <LeafFields
                leaf={node}
                spaceId={spaceId}
                disabled={disabled}
                error={errors[at] ?? firstError(errors, at)}
                onChange={(leaf) => set(index, leaf)}
              />
            </Paper>
          );
        })}
        {!disabled && (
          <Group gap="xs">
            <Select
              size="xs"
              placeholder={t('settings.rules.addCondition')}
              aria-label={t('settings.rules.addCondition')}
              leftSection={<IconPlus size={14} />}
              data={RULE_CONDITION_TYPES.map((type) => ({
                value: type,
                label: t(`settings.rules.conditionTypes.${type}`),
              }))}
              value={null}
              onChange={(type) =>
                type && onChange(withChildren(value, [...list, blankLeaf(type as RuleConditionType)]))
              }
              w={{ base: '100%', sm: 260 }}
              data-testid="rule-add-condition"
            />
            {depth < RULE_DEPTH_MAX && (
              <Button
                size="xs"
                variant="subtle"
                leftSection={<IconPlus size={14} />}
                onClick={() => onChange(withChildren(value, [...list, { any: [] }]))}
              >
                {t('settings.rules.addGroup')}
              </Button>
            )}
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

function firstError(errors: Errors, prefix: string) {
  const found = Object.keys(errors).find((k) => k.startsWith(`${prefix}.`));
  return found ? errors[found] : undefined;
}

function LeafFields({
  leaf,
  spaceId,
  disabled,
  error,
  onChange,
}: {
  leaf: RuleLeaf;
  spaceId: number;
  disabled: boolean;
  error?: string;
  onChange: (leaf: RuleLeaf) => void;
}) {
  const { t } = useTranslation();
  const data = useInboxData();
  const objects = useObjects(
    leaf.type === 'account' ||
      leaf.type === 'network' ||
      leaf.type === 'company' ||
      leaf.type === 'author_label',
  );
  const accounts = (objects.data?.items ?? []).filter((o) => o.space_id === spaceId);
  // What every list condition's picker has: its condition's name is its accessible label.
  const picker = {
    mt: 4,
    size: 'xs',
    error,
    disabled,
    'aria-label': t(`settings.rules.conditionTypes.${leaf.type}`),
  } as const;
  switch (leaf.type) {
    case 'text_contains':
    case 'post_contains':
      return (
        <TagsInput
          mt={4}
          size="xs"
          label={t('settings.rules.words')}
          description={t('settings.rules.wordsHint')}
          value={leaf.values}
          onChange={(values) => onChange({ ...leaf, values })}
          error={error}
          disabled={disabled}
          data-testid={leaf.type === 'text_contains' ? 'rule-words' : undefined}
        />
      );
    case 'author_items':
      return (
        <RangeFields
          error={error}
          disabled={disabled}
          from={{
            label: t('settings.rules.itemsFrom'),
            value: leaf.min,
            onChange: (v) => onChange({ ...leaf, min: typeof v === 'number' ? v : 1 }),
          }}
          to={{
            label: t('settings.rules.itemsTo'),
            description: t('settings.rules.itemsToHint'),
            value: leaf.max ?? '',
            onChange: (v) => onChange({ ...leaf, max: typeof v === 'number' ? v : null }),
          }}
        />
      );
    case 'author_label':
      return (
        <IdMultiSelect
          {...picker}
          data={spaceOptions(objects.data?.labels, spaceId, (l) => l.name)}
          value={leaf.label_ids}
          onChange={(label_ids) => onChange({ ...leaf, label_ids })}
          searchable
        />
      );
    case 'regex':
      return (
        <TextInput
          mt={4}
          size="xs"
          label={t('settings.rules.pattern')}
          value={leaf.pattern}
          onChange={(e) => onChange({ ...leaf, pattern: e.currentTarget.value })}
          error={error}
          maxLength={200}
          disabled={disabled}
          ff="monospace"
        />
      );
    case 'network': {
      const ids = [...new Set(accounts.map((o) => o.provider))].filter(isProviderId);
      return (
        <MultiSelect
          {...picker}
          data={ids.map((id) => ({ value: id, label: providers[id].name }))}
          value={leaf.providers}
          onChange={(list) => onChange({ ...leaf, providers: list })}
        />
      );
    }
    case 'account':
      return (
        <IdMultiSelect
          {...picker}
          data={spaceOptions(objects.data?.items, spaceId, (o) => o.name)}
          value={leaf.object_ids}
          onChange={(object_ids) => onChange({ ...leaf, object_ids })}
          searchable
        />
      );
    case 'company':
      return (
        <IdMultiSelect
          {...picker}
          data={spaceOptions(objects.data?.companies, spaceId, (c) => c.name)}
          value={leaf.company_ids}
          onChange={(company_ids) => onChange({ ...leaf, company_ids })}
          searchable
        />
      );
    case 'kind':
      return (
        <MultiSelect
          {...picker}
          data={CONTENT_KINDS.map((k) => ({ value: k, label: t(`settings.rules.kinds.${k}`) }))}
          value={leaf.kinds}
          onChange={(list) => onChange({ ...leaf, kinds: list as Array<(typeof CONTENT_KINDS)[number]> })}
        />
      );
    case 'rating':
      return (
        <RangeFields
          error={error}
          disabled={disabled}
          from={{
            label: t('settings.rules.ratingFrom'),
            max: 5,
            value: leaf.min,
            onChange: (v) => onChange({ ...leaf, min: typeof v === 'number' ? v : 1 }),
          }}
          to={{
            label: t('settings.rules.ratingTo'),
            max: 5,
            value: leaf.max,
            onChange: (v) => onChange({ ...leaf, max: typeof v === 'number' ? v : 5 }),
          }}
        />
      );
    case 'sentiment':
      return (
        <MultiSelect
          {...picker}
          data={EMOTION_CHOICES.map((v) => ({ value: v, label: t(`shell.emotions.sentiment.${v}`) }))}
          value={leaf.values}
          onChange={(list) => onChange({ ...leaf, values: list as EmotionChoice[] })}
        />
      );
    case 'language':
      return (
        <MultiSelect
          {...picker}
          data={RULE_LANGUAGES.map((l) => ({ value: l, label: t(`settings.rules.languages.${l}`) }))}
          value={leaf.languages}
          onChange={(list) => onChange({ ...leaf, languages: list as RuleLanguage[] })}
          data-testid="rule-languages"
        />
      );
    case 'tag':
      return (
        <IdMultiSelect
          {...picker}
          data={spaceOptions([...data.tagsById.values()], spaceId, (tag) => tag.name)}
          value={leaf.tag_ids}
          onChange={(tag_ids) => onChange({ ...leaf, tag_ids })}
          searchable
        />
      );
    default:
      return null;
  }
}

/** A condition's "from" and "to" numbers side by side (1 at the least); its error goes under "from". */
function RangeFields({
  from,
  to,
  error,
  disabled,
}: {
  from: NumberInputProps;
  to: NumberInputProps;
  error?: string;
  disabled: boolean;
}) {
  return (
    <Group mt={4} gap="xs" grow>
      <NumberInput size="xs" min={1} disabled={disabled} error={error} {...from} />
      <NumberInput size="xs" min={1} disabled={disabled} {...to} />
    </Group>
  );
}

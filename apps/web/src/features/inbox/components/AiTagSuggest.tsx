import { Button, Group, Stack, Text } from '@mantine/core';
import { can } from '@otklik/shared';
import { IconPlus, IconSparkles } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useAiTags } from '../../../api/ai';
import { showError } from '../../../components/notify';
import { useShell } from '../../../shell/ShellContext';
import type { InboxData } from '../hooks/useInboxData';
import { companyTagsOnly, tagOptions } from '../model/tags';
import type { TemplateTarget } from './TemplatePicker';

// Tag suggestions beside the tag picker (issue 21): the space's first agent reads the conversation and
// names some of the space's tags; the operator adds one or all of them. Tags already on the record, or
// not offered for its account (company-only tags), are left out.

export function AiTagSuggest({
  target,
  objectId,
  value,
  data,
  onAdd,
}: {
  target: TemplateTarget;
  objectId?: number;
  value: number[];
  data: InboxData;
  onAdd: (ids: number[]) => void;
}) {
  const { t } = useTranslation();
  const { actor, objects } = useShell();
  const suggest = useAiTags();
  const companyOnly = companyTagsOnly(objectId, data);
  const offered = useMemo(
    () =>
      new Set(
        tagOptions([...data.tagsById.values()], target.space_id, companyOnly).map((o) => Number(o.value)),
      ),
    [data.tagsById, target.space_id, companyOnly],
  );
  if (!can(actor, 'ai.use', target.space_id)) return null;
  const agent = (objects?.ai_agents ?? []).find((a) => a.space_id === target.space_id);
  if (!agent) return null;
  const suggested = (suggest.data?.tag_ids ?? []).filter((id) => offered.has(id) && !value.includes(id));
  const label = (id: number) =>
    tagOptions([...data.tagsById.values()], target.space_id).find((o) => o.value === String(id))?.label ??
    String(id);
  const ask = () =>
    suggest.mutate(
      {
        agent_id: agent.id,
        ...(target.item_id !== undefined ? { item_id: target.item_id } : { chat_id: target.chat_id }),
      },
      { onError: showError },
    );
  return (
    <Stack gap={6} data-testid="ai-tags">
      <Button
        variant="subtle"
        color="violet"
        size="compact-xs"
        leftSection={<IconSparkles size={12} />}
        loading={suggest.isPending}
        onClick={ask}
        style={{ alignSelf: 'flex-start' }}
        data-testid="ai-tags-suggest"
      >
        {t('settings.ai.tags.suggest')}
      </Button>
      {suggest.isSuccess &&
        (suggested.length === 0 ? (
          <Text fz="xs" c="dimmed" data-testid="ai-tags-none">
            {t(
              (suggest.data?.tag_ids ?? []).some((id) => value.includes(id))
                ? 'settings.ai.tags.allAdded'
                : 'settings.ai.tags.none',
            )}
          </Text>
        ) : (
          <Group gap={4}>
            {suggested.map((id) => (
              <Button
                key={id}
                variant="light"
                size="compact-xs"
                leftSection={<IconPlus size={12} />}
                onClick={() => onAdd([id])}
                data-testid="ai-tag"
              >
                {label(id)}
              </Button>
            ))}
            {suggested.length > 1 && (
              <Button variant="subtle" size="compact-xs" onClick={() => onAdd(suggested)}>
                {t('settings.ai.tags.addAll')}
              </Button>
            )}
          </Group>
        ))}
    </Stack>
  );
}

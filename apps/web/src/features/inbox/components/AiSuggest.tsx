import { Button, Menu } from '@mantine/core';
import { type AiSuggestMode, can } from '@otklik/shared';
import { IconChevronDown, IconSparkles } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useAiSuggest } from '../../../api/ai';
import { useShell } from '../../../app/shell/ShellContext';
import { showError } from '../../../components/notify';
import { notifyDone } from '../notify';
import type { TemplateTarget } from './TemplatePicker';

// The composer's AI button (issue 21): "Suggest reply" and, on the draft, shorten / politer / translate,
// through the space's first agent (GET /v1/objects ai_agents). The answer replaces the box's text for
// the operator to check and edit; nothing is ever sent from here.

export function AiSuggest({
  target,
  text,
  onText,
  disabled,
}: {
  target: TemplateTarget | undefined;
  text: string;
  onText: (text: string) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const { actor, objects } = useShell();
  const suggest = useAiSuggest();
  if (!target || !can(actor, 'ai.use', target.space_id)) return null;
  const agent = (objects?.ai_agents ?? []).find((a) => a.space_id === target.space_id);
  if (!agent) return null;
  const run = (mode: AiSuggestMode, extra: { target?: string } = {}) => {
    suggest.mutate(
      {
        agent_id: agent.id,
        mode,
        ...(target.item_id !== undefined ? { item_id: target.item_id } : { chat_id: target.chat_id }),
        ...(text.trim() ? { text } : {}),
        ...extra,
      },
      {
        onSuccess: (res) => {
          onText(res.text);
          notifyDone(t('settings.ai.suggest.done'));
        },
        onError: showError,
      },
    );
  };
  return (
    <Button.Group>
      <Button
        variant="light"
        color="violet"
        size="compact-sm"
        leftSection={<IconSparkles size={14} />}
        loading={suggest.isPending}
        disabled={disabled}
        onClick={() => run('reply')}
        data-testid="ai-suggest"
      >
        {t('settings.ai.suggest.reply')}
      </Button>
      <Menu position="top-start" withinPortal>
        <Menu.Target>
          <Button
            variant="light"
            color="violet"
            size="compact-sm"
            px={4}
            disabled={disabled || suggest.isPending}
            aria-label={t('settings.ai.suggest.button')}
            data-testid="ai-suggest-more"
          >
            <IconChevronDown size={14} />
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {!text.trim() && <Menu.Label>{t('settings.ai.suggest.needsText')}</Menu.Label>}
          <Menu.Item disabled={!text.trim()} onClick={() => run('shorten')}>
            {t('settings.ai.suggest.shorten')}
          </Menu.Item>
          <Menu.Item
            disabled={!text.trim()}
            onClick={() => run('rewrite_tone', { target: 'polite, friendly' })}
          >
            {t('settings.ai.suggest.rewrite_tone')}
          </Menu.Item>
          <Menu.Item disabled={!text.trim()} onClick={() => run('translate', { target: 'en' })}>
            {t('settings.ai.suggest.translate')}
          </Menu.Item>
          <Menu.Item disabled={!text.trim()} onClick={() => run('translate', { target: 'ru' })}>
            {t('settings.ai.suggest.translateRu')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </Button.Group>
  );
}

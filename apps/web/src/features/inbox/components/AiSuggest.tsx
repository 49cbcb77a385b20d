import { Button, CopyButton, Menu, Modal, Stack, Text } from '@mantine/core';
import { type AiSuggestMode, can } from '@otklik/shared';
import { IconChevronDown, IconPlayerStop, IconSparkles } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { streamSuggestion } from '../../../api/ai';
import { isAbort } from '../../../api/client';
import { showError } from '../../../components/notify';
import { useShell } from '../../../shell/ShellContext';
import { notifyDone } from '../notify';
import type { TemplateTarget } from './TemplatePicker';

// The composer's AI button (issue 21): "Suggest reply" and, on the draft, shorten / politer / translate,
// plus a summary of the conversation, through the space's first agent (GET /v1/objects ai_agents).
// The text streams into the reply box as the provider writes it, and "Stop" ends it there (the server
// aborts the provider's request). A failure puts the operator's draft back. Nothing is ever sent from
// here. The summary is for the operator: it opens in a window and leaves the reply box alone.

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
  const [running, setRunning] = useState<AiSuggestMode | null>(null);
  const [summary, setSummary] = useState<string | null>(null);
  const controller = useRef<AbortController | null>(null);
  // Leaving the conversation stops a suggestion in progress.
  useEffect(() => () => controller.current?.abort(), []);
  if (!target || !can(actor, 'ai.use', target.space_id)) return null;
  const agent = (objects?.ai_agents ?? []).find((a) => a.space_id === target.space_id);
  if (!agent) return null;

  const run = (mode: AiSuggestMode, extra: { target?: string } = {}) => {
    const abort = new AbortController();
    controller.current = abort;
    const draft = text;
    const toSummary = mode === 'summarize';
    if (toSummary) setSummary('');
    setRunning(mode);
    streamSuggestion(
      {
        agent_id: agent.id,
        mode,
        ...(target.item_id !== undefined ? { item_id: target.item_id } : { chat_id: target.chat_id }),
        ...(draft.trim() && !toSummary ? { text: draft } : {}),
        ...extra,
      },
      abort.signal,
      toSummary ? setSummary : onText,
    )
      .then((whole) => {
        if (toSummary) setSummary(whole);
        else {
          onText(whole);
          notifyDone(t('settings.ai.suggest.done'));
        }
      })
      .catch((error: unknown) => {
        // Stopped by the operator: what was written so far stays.
        if (isAbort(error)) return;
        if (!toSummary) onText(draft);
        else setSummary(null);
        showError(error);
      })
      .finally(() => {
        if (controller.current === abort) controller.current = null;
        setRunning(null);
      });
  };
  const stop = () => controller.current?.abort();

  return (
    <>
      {running && running !== 'summarize' ? (
        <Button
          variant="light"
          color="violet"
          size="compact-sm"
          leftSection={<IconPlayerStop size={14} />}
          onClick={stop}
          data-testid="ai-stop"
        >
          {t('settings.ai.suggest.stop')}
        </Button>
      ) : (
        <Button.Group>
          <Button
            variant="light"
            color="violet"
            size="compact-sm"
            leftSection={<IconSparkles size={14} />}
            disabled={disabled || running !== null}
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
                disabled={disabled || running !== null}
                aria-label={t('settings.ai.suggest.button')}
                data-testid="ai-suggest-more"
              >
                <IconChevronDown size={14} />
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item onClick={() => run('summarize')} data-testid="ai-summarize">
                {t('settings.ai.suggest.summarize')}
              </Menu.Item>
              <Menu.Divider />
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
      )}
      <Modal
        opened={summary !== null}
        onClose={() => {
          stop();
          setSummary(null);
        }}
        title={t('settings.ai.suggest.summaryTitle')}
        size="lg"
      >
        <Stack gap="sm">
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} data-testid="ai-summary">
            {summary || t('settings.ai.suggest.loading')}
          </Text>
          {running === 'summarize' ? (
            <Button
              variant="light"
              color="violet"
              leftSection={<IconPlayerStop size={14} />}
              onClick={stop}
              data-testid="ai-summary-stop"
              style={{ alignSelf: 'flex-start' }}
            >
              {t('settings.ai.suggest.stop')}
            </Button>
          ) : (
            <CopyButton value={summary ?? ''}>
              {({ copied, copy }) => (
                <Button variant="light" onClick={copy} style={{ alignSelf: 'flex-start' }}>
                  {copied ? t('settings.ai.suggest.copied') : t('settings.ai.suggest.copy')}
                </Button>
              )}
            </CopyButton>
          )}
        </Stack>
      </Modal>
    </>
  );
}

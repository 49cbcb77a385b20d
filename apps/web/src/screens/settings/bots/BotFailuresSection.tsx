import { pathFor } from '@otklik/shared/routes';
import { useTranslation } from 'react-i18next';
import { useBotFailures } from '../../../api/bots';
import { FailureList, type FailureSectionFrame } from '../errors/FailureList';

// settings/errors: chat-bot steps that failed (a webhook that failed every try, an AI step whose provider
// failed; issues 17, 21), beside the auto-rule failures and drawn by the same list.

export function BotFailuresSection(props: FailureSectionFrame) {
  const { t } = useTranslation();
  return (
    <FailureList
      {...props}
      query={useBotFailures()}
      testId="errors-bots"
      rowTestId="errors-bot"
      text={{
        title: t('settings.bots.failures.title'),
        hint: t('settings.bots.failures.hint'),
        empty: t('settings.bots.failures.empty'),
        open: t('settings.bots.failures.open'),
      }}
      heading={(row) => t('settings.bots.failures.bot', { name: row.bot, step: row.step_id })}
      link={(row) => pathFor('chat-messages', { id: row.chat_id })}
    />
  );
}

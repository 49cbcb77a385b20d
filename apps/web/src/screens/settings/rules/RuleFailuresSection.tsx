import { pathFor } from '@otklik/shared/routes';
import { useTranslation } from 'react-i18next';
import { useRuleFailures } from '../../../api/rules';
import { FailureList, type FailureSectionFrame } from '../errors/FailureList';

// settings/errors: auto-rule runs whose action failed (issue 17: a failed action is never silent). The
// screen passes its own section title and "all good" card so the section looks like the others.

export function RuleFailuresSection(props: FailureSectionFrame) {
  const { t } = useTranslation();
  return (
    <FailureList
      {...props}
      query={useRuleFailures()}
      testId="errors-rules"
      rowTestId="errors-rule"
      text={{
        title: t('settings.rules.failures.title'),
        hint: t('settings.rules.failures.hint'),
        empty: t('settings.rules.failures.empty'),
        open: t('settings.rules.failures.open'),
      }}
      heading={(row) => t('settings.rules.failures.rule', { name: row.rule })}
      excerpt={(row) => row.excerpt}
      link={(row) => pathFor('item', { id: row.item_id })}
    />
  );
}

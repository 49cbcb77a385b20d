import {
  Button,
  Group,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { type AuthorFact, normalizeFactValue } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAuthorFacts, useSetAuthorFacts } from '../../api/facts';
import { showError, showSaved } from '../../components/notify';
import { useMessage } from '../../i18n/useLocale';

/** How a stored value reads (dates in the user's language, yes/no). */
function shownValue(fact: AuthorFact, yesNo: { yes: string; no: string }, locale: string): string {
  if (fact.value === null) return '—';
  if (fact.kind === 'boolean') return fact.value === 'true' ? yesNo.yes : yesNo.no;
  if (fact.kind === 'date')
    return new Date(`${fact.value}T00:00:00Z`).toLocaleDateString(locale === 'en' ? 'en-GB' : 'ru-RU', {
      timeZone: 'UTC',
    });
  return fact.value;
}

function FactInput({
  fact,
  value,
  error,
  onChange,
}: {
  fact: AuthorFact;
  value: string;
  error?: string;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation();
  const common = { label: fact.name, error, 'data-testid': `author-fact-${fact.fact_id}` };
  switch (fact.kind) {
    case 'boolean':
      return (
        <Switch
          label={fact.name}
          checked={value === 'true'}
          onChange={(e) => onChange(e.currentTarget.checked ? 'true' : 'false')}
          data-testid={common['data-testid']}
        />
      );
    case 'select':
      return (
        <Select
          {...common}
          data={fact.options}
          value={value || null}
          onChange={(next) => onChange(next ?? '')}
          clearable
          placeholder={t('settings.facts.notSet')}
        />
      );
    case 'number':
      return (
        <NumberInput
          {...common}
          value={value}
          onChange={(next) => onChange(String(next))}
          decimalSeparator=","
          allowDecimal
        />
      );
    case 'date':
      return (
        <TextInput {...common} type="date" value={value} onChange={(e) => onChange(e.currentTarget.value)} />
      );
    default:
      return (
        <TextInput
          {...common}
          type={
            fact.kind === 'email'
              ? 'email'
              : fact.kind === 'url'
                ? 'url'
                : fact.kind === 'phone'
                  ? 'tel'
                  : 'text'
          }
          value={value}
          onChange={(e) => onChange(e.currentTarget.value)}
        />
      );
  }
}

/** The author's custom fields (Settings → Custom fields): read by everyone who sees the author, edited by labellers. */
export function AuthorFacts({
  authorId,
  canEdit,
  canManage,
}: {
  authorId: number;
  canEdit: boolean;
  canManage: boolean;
}) {
  const { t, i18n } = useTranslation();
  const message = useMessage();
  const facts = useAuthorFacts(authorId);
  const save = useSetAuthorFacts(authorId);
  const [draft, setDraft] = useState<Record<string, string> | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const items = facts.data ?? [];
  if (facts.isPending || facts.error) return null;
  if (items.length === 0) {
    if (!canManage) return null;
    return (
      <Text fz="xs" c="dimmed" data-testid="author-facts-none">
        {t('settings.facts.authorNone')}{' '}
        <Link to={pathFor('settings-custom-facts')}>{t('settings.facts.authorSetUp')}</Link>
      </Text>
    );
  }
  const startEditing = () => {
    setErrors({});
    setDraft(Object.fromEntries(items.map((f) => [String(f.fact_id), f.value ?? ''])));
  };
  const submit = async () => {
    if (!draft) return;
    const changed: Record<string, string | null> = {};
    const found: Record<string, string> = {};
    for (const fact of items) {
      const key = String(fact.fact_id);
      const next = draft[key]?.trim() ?? '';
      if (next === (fact.value ?? '')) continue;
      if (next === '') changed[key] = null;
      else {
        const checked = normalizeFactValue(fact.kind, next, fact.options);
        if ('error' in checked) found[key] = message(checked.error);
        else changed[key] = next;
      }
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    if (Object.keys(changed).length === 0) {
      setDraft(null);
      return;
    }
    try {
      await save.mutateAsync(changed);
      setDraft(null);
      showSaved(t('settings.common.saved'));
    } catch (error) {
      showError(error);
    }
  };
  return (
    <Paper withBorder radius="md" p="md" data-testid="author-facts">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} fz={16}>
            {t('settings.facts.authorHeading')}
          </Title>
          {canEdit && !draft && (
            <Button size="compact-sm" variant="light" onClick={startEditing} data-testid="author-facts-edit">
              {t('common.edit')}
            </Button>
          )}
        </Group>
        {draft ? (
          <Stack gap="sm">
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              {items.map((fact) => (
                <FactInput
                  key={fact.fact_id}
                  fact={fact}
                  value={draft[String(fact.fact_id)] ?? ''}
                  error={errors[String(fact.fact_id)]}
                  onChange={(value) => setDraft((d) => ({ ...d, [String(fact.fact_id)]: value }))}
                />
              ))}
            </SimpleGrid>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setDraft(null)}>
                {t('common.cancel')}
              </Button>
              <Button onClick={() => void submit()} loading={save.isPending} data-testid="author-facts-save">
                {t('common.save')}
              </Button>
            </Group>
          </Stack>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="xs">
            {items.map((fact) => (
              <Stack key={fact.fact_id} gap={0} data-testid={`author-fact-value-${fact.fact_id}`}>
                <Text fz="xs" c="dimmed">
                  {fact.name}
                </Text>
                <Text fz="sm">
                  {shownValue(
                    fact,
                    { yes: t('settings.facts.yes'), no: t('settings.facts.no') },
                    i18n.language,
                  )}
                </Text>
              </Stack>
            ))}
          </SimpleGrid>
        )}
      </Stack>
    </Paper>
  );
}

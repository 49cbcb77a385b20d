import { Button, Group, Paper, Stack } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import type { output, ZodType } from 'zod';
import { showError, showSaved } from '../../components/notify';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { useZodForm } from '../../forms/useZodForm';
import { isNotFoundError, RecordLoading, RecordNotFound } from '../../shell/RecordNotFound';

// The form half of the settings kit (docs/HOW-TO.md "add a settings screen"): the create/edit screen of
// one record. The record comes from the list query (no second request); the form validates with a
// shared zod schema (messages in the user's language), shows the server's field errors under their
// fields and anything else as a notice, and goes back to the list once saved.

interface RecordQuery {
  isPending: boolean;
  error: Error | null;
  refetch: () => unknown;
}

/** The `:id` of a record route, or null on the create route. */
export function useRecordId(): number | null {
  const { id } = useParams();
  return id ? Number(id) : null;
}

/**
 * A create/edit screen before its form: loading or the failure while the list loads, "not found" for
 * an id the list does not have; then `children` with the record (undefined when creating).
 */
export function RecordState<T>({
  query,
  id,
  find,
  notFoundTitle,
  errorTitle,
  children,
}: {
  query: RecordQuery;
  id: number | null;
  find: (id: number) => T | undefined;
  notFoundTitle: string;
  /** Names the failure of the list query; without it, RecordLoading's failure state. */
  errorTitle?: string;
  children: (record: T | undefined) => ReactNode;
}) {
  if (errorTitle && query.error && !isNotFoundError(query.error)) {
    return (
      <QueryState queries={[query]} errorTitle={errorTitle}>
        {() => null}
      </QueryState>
    );
  }
  if (query.isPending || query.error) return <RecordLoading query={query} notFoundTitle={notFoundTitle} />;
  const record = id ? find(id) : undefined;
  if (id && !record) return <RecordNotFound title={notFoundTitle} />;
  return <>{children(record)}</>;
}

/**
 * useZodForm plus saving: `onSubmit(save)` validates, runs `save` with the parsed values, then says
 * `saved` and opens `backTo`; a failure puts the server's field errors on the fields, or shows a notice.
 */
export function useSettingsForm<S extends ZodType, V extends Record<string, unknown>>(
  schema: S,
  initialValues: V,
  { saved, backTo }: { saved: string; backTo: string },
) {
  const zod = useZodForm(schema, initialValues);
  const navigate = useNavigate();
  const [saving, setSaving] = useState(false);
  const onSubmit = (save: (data: output<S>) => Promise<unknown>) =>
    zod.handleSubmit(async (data) => {
      setSaving(true);
      try {
        await save(data);
        showSaved(saved);
        navigate(backTo);
      } catch (error) {
        if (!zod.setServerErrors(error)) showError(error);
      } finally {
        setSaving(false);
      }
    });
  return { ...zod, saving, onSubmit };
}

/** The create/edit screen: heading, the fields in a card, Create/Save and Cancel (and `buttons`), then `after`. */
export function SettingsFormPage({
  title,
  isNew,
  onSubmit,
  saving,
  saveTestId,
  cancelTo,
  buttons,
  after,
  maw = 560,
  children,
}: {
  title: ReactNode;
  isNew: boolean;
  onSubmit: (event?: FormEvent<HTMLFormElement>) => void;
  saving: boolean;
  saveTestId: string;
  cancelTo: string;
  buttons?: ReactNode;
  after?: ReactNode;
  maw?: number;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap="lg" maw={maw}>
      <PageHeader title={title} />
      <Paper withBorder radius="md" p="md">
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="sm">
            {children}
            <Group>
              <Button type="submit" loading={saving} data-testid={saveTestId}>
                {isNew ? t('common.create') : t('common.save')}
              </Button>
              <Button variant="default" component={Link} to={cancelTo}>
                {t('common.cancel')}
              </Button>
              {buttons}
            </Group>
          </Stack>
        </form>
      </Paper>
      {after}
    </Stack>
  );
}

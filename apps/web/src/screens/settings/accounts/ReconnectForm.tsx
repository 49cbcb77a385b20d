import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { connectFields, isProviderId } from '@otklik/shared';
import { useState } from 'react';
import { useConnectableProviders, useReconnectAccount } from '../../../api/accounts';
import { ApiError, NetworkError } from '../../../api/client';
import type { Account } from '../../../api/inboxTypes';
import { showError, showSaved } from '../../../components/notify';
import { useInboxT } from '../../../features/inbox/i18n';
import { useMessage } from '../../../i18n/useLocale';
import { CredentialsFields } from './CredentialsFields';
import {
  credentialsFrom,
  emptyValues,
  type FieldValues,
  serverFieldErrors,
  validateConnectFields,
} from './connectFields';

/** Whether an account can be reconnected by typing new credentials (its network takes them here). */
export function useCanReconnect(account: Account): boolean {
  const connectable = useConnectableProviders();
  const how = connectable.data?.find((item) => item.id === account.provider);
  return Boolean(how?.fields) && isProviderId(account.provider) && connectFields(account.provider).length > 0;
}

/**
 * An account whose token stopped working (revoked, bot re-created) gets new credentials: the same
 * fields as connecting, POST /v1/objects/:id/reconnect. The network checks them first; its refusal shows
 * here. History stays, the error clears.
 */
export function ReconnectForm({ account }: { account: Account }) {
  const t = useInboxT();
  const message = useMessage();
  const reconnect = useReconnectAccount();
  const fields = isProviderId(account.provider) ? connectFields(account.provider) : [];
  const [values, setValues] = useState<FieldValues>(() => emptyValues(fields));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);

  const submit = () => {
    setFormError(null);
    const problems = validateConnectFields(fields, values);
    if (Object.keys(problems).length > 0) {
      setErrors(
        Object.fromEntries(
          Object.entries(problems).map(([name, problem]) => [
            name,
            problem.kind === 'message' ? message(problem.key) : t('accounts.groupIdNumeric'),
          ]),
        ),
      );
      return;
    }
    // A promise, not mutate()'s callbacks: the account reloads without its error and this form goes
    // away before those callbacks would run.
    reconnect.mutateAsync({ id: account.id, credentials: credentialsFrom(fields, values) }).then(
      () => {
        setValues(emptyValues(fields));
        showSaved(t('accounts.reconnected'));
      },
      (error: unknown) => {
        if (error instanceof ApiError) {
          const onFields = serverFieldErrors(fields, error.fields);
          if (Object.keys(onFields).length > 0) setErrors(onFields);
          else if (error.status !== 403) setFormError(error.message);
        } else if (!(error instanceof NetworkError)) showError(error);
      },
    );
  };

  return (
    <Paper withBorder radius="md" p="md" data-testid="reconnect">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack gap="sm">
          <Title order={2} fz="sm">
            {t('accounts.reconnectHeading')}
          </Title>
          <Text fz="sm" c="dimmed">
            {t('accounts.reconnectHint')}
          </Text>
          {formError && (
            <Alert
              color="red"
              variant="light"
              title={t('accounts.connectFailed')}
              data-testid="reconnect-error"
            >
              {formError}
            </Alert>
          )}
          <CredentialsFields
            fields={fields}
            values={values}
            errors={errors}
            onChange={(name, value) => {
              setValues((current) => ({ ...current, [name]: value }));
              setErrors(({ [name]: _, ...rest }) => rest);
            }}
            disabled={reconnect.isPending}
          />
          <Group>
            <Button type="submit" loading={reconnect.isPending} data-testid="reconnect-submit">
              {t('accounts.reconnect')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

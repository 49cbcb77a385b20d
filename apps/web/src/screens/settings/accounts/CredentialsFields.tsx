import { Button, FileButton, Group, Stack, Text, Textarea, TextInput } from '@mantine/core';
import type { ConnectField } from '@otklik/shared';
import { IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { PasswordField } from '../../../components/PasswordField';
import { useInboxT } from '../../../features/inbox/i18n';
import { useLocale } from '../../../i18n/useLocale';
import type { FieldValues } from './connectFields';

/**
 * The inputs of a network's credentials (shared CONNECT_FIELDS): secrets as password fields, each with
 * the network's hint under it; several-line values (a JSON key file, a private key) as a text area that a
 * file can fill. Errors arrive as text (translated here or by the server).
 */
export function CredentialsFields({
  fields,
  values,
  errors,
  onChange,
  disabled,
  autoFocus,
}: {
  fields: readonly ConnectField[];
  values: FieldValues;
  errors: Record<string, string>;
  onChange: (name: string, value: string) => void;
  disabled?: boolean;
  autoFocus?: boolean;
}) {
  const locale = useLocale();
  return fields.map((field, index) => {
    const common = {
      label: field.label[locale],
      description: field.hint?.[locale],
      withAsterisk: field.required,
      value: values[field.name] ?? '',
      error: errors[field.name],
      disabled,
      // Credentials are not the user's login: no saving or autofilling by the browser.
      autoComplete: field.secret ? 'new-password' : 'off',
      spellCheck: false,
      'data-autofocus': autoFocus && index === 0 ? true : undefined,
      'data-testid': `credential-${field.name}`,
      inputWrapperOrder: ['label', 'input', 'description', 'error'] as (
        | 'label'
        | 'input'
        | 'description'
        | 'error'
      )[],
    };
    if (field.multiline)
      return (
        <MultilineField
          key={field.name}
          common={common}
          accept={field.multiline.accept}
          onChange={(value) => onChange(field.name, value)}
        />
      );
    return field.secret ? (
      <PasswordField
        key={field.name}
        {...common}
        onChange={(event) => onChange(field.name, event.currentTarget.value)}
      />
    ) : (
      <TextInput
        key={field.name}
        {...common}
        onChange={(event) => onChange(field.name, event.currentTarget.value)}
      />
    );
  });
}

/** A text area for a key or a key file, with a button that reads a chosen file into it. */
function MultilineField({
  common,
  accept,
  onChange,
}: {
  common: Record<string, unknown> & { label: string; disabled?: boolean; 'data-testid': string };
  accept?: string;
  onChange: (value: string) => void;
}) {
  const t = useInboxT();
  const [loaded, setLoaded] = useState<string | null>(null);
  const load = (file: File | null) => {
    if (!file) return;
    void file.text().then((text) => {
      setLoaded(file.name);
      onChange(text.trim());
    });
  };
  return (
    <Stack gap={4}>
      <Textarea
        {...common}
        autosize
        minRows={3}
        maxRows={8}
        styles={{ input: { fontFamily: 'monospace', fontSize: 12 } }}
        onChange={(event) => {
          setLoaded(null);
          onChange(event.currentTarget.value);
        }}
      />
      <Group gap="xs">
        <FileButton onChange={load} accept={accept}>
          {(props) => (
            <Button
              {...props}
              variant="default"
              size="xs"
              leftSection={<IconUpload size={14} />}
              disabled={common.disabled}
              data-testid={`${common['data-testid']}-file`}
            >
              {t('accounts.uploadFile')}
            </Button>
          )}
        </FileButton>
        {loaded && (
          <Text size="xs" c="dimmed">
            {t('accounts.fileLoaded', { name: loaded })}
          </Text>
        )}
      </Group>
    </Stack>
  );
}

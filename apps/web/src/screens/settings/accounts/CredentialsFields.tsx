import { TextInput } from '@mantine/core';
import type { ConnectField } from '@otklik/shared';
import { PasswordField } from '../../../components/PasswordField';
import { useLocale } from '../../../i18n/useLocale';
import type { FieldValues } from './connectFields';

/**
 * The inputs of a network's credentials (shared CONNECT_FIELDS): secrets as password fields, each with
 * the network's hint under it. Errors arrive as text (translated here or by the server).
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

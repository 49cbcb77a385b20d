import { Button, Group, TextInput } from '@mantine/core';
import { changeEmailFormSchema } from '@otklik/shared';
import { useTranslation } from 'react-i18next';
import { useChangeEmail } from '../../api/me';
import { useZodForm } from '../../forms/useZodForm';

interface ChangeEmailFormProps {
  email: string;
  onDone: (message: string) => void;
  onError: (message: string) => void;
  onCancel?: () => void;
}

/** PUT /v1/me/email — save stays disabled until the email is valid (docs/product/validation.md). */
export function ChangeEmailForm({ email, onDone, onError, onCancel }: ChangeEmailFormProps) {
  const { t } = useTranslation();
  const change = useChangeEmail();
  const { form, handleSubmit, setServerErrors } = useZodForm(changeEmailFormSchema, { email });
  const isValid = changeEmailFormSchema.safeParse(form.values).success;

  const onSubmit = handleSubmit(async (data) => {
    try {
      const result = await change.mutateAsync({ email: data.email });
      onDone(result.message);
    } catch (error) {
      if (!setServerErrors(error) && error instanceof Error) onError(error.message);
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <TextInput
        label={t('emailConfirm.newEmail')}
        type="email"
        autoComplete="email"
        data-autofocus
        {...form.getInputProps('email')}
      />
      <Group justify="flex-end" mt="md">
        {onCancel && (
          <Button variant="default" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
        )}
        <Button type="submit" disabled={!isValid} loading={change.isPending}>
          {t('common.save')}
        </Button>
      </Group>
    </form>
  );
}

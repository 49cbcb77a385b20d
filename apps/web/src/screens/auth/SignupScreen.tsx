import { Anchor, Button, Center, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { isLocale, signupFormSchema } from '@otklik/shared';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { authApi } from '../../api/auth';
import { AuthLayout } from '../../components/AuthLayout';
import { PasswordField } from '../../components/PasswordField';
import { ResultCard } from '../../components/ResultCard';
import { useZodForm } from '../../forms/useZodForm';
import { useLocale, useMessage } from '../../i18n/useLocale';
import { LocaleField } from './LocaleField';
import { showSignupError } from './signupErrors';

function tariffFromQuery(value: string | null): number | undefined {
  const id = Number(value);
  return Number.isInteger(id) && id > 0 ? id : undefined;
}

/** /signup: a new workspace owner. Success → "we sent a link to <email>" (SPEC §4). */
export default function SignupScreen() {
  const { t } = useTranslation();
  const message = useMessage();
  const locale = useLocale();
  const [params] = useSearchParams();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const signup = useMutation({ mutationFn: authApi.signup });
  const { form, handleSubmit, setServerErrors } = useZodForm(signupFormSchema, {
    name: '',
    email: '',
    password: '',
    company: '',
    promocode: '',
    locale,
  });

  const onSubmit = handleSubmit(async (data) => {
    try {
      const result = await signup.mutateAsync({
        ...data,
        promocode: data.promocode || undefined,
        tariff_id: tariffFromQuery(params.get('tariff_id')),
      });
      setSentTo(result.email || data.email);
    } catch (error) {
      setServerErrors(error);
      showSignupError(error, message('error.signupFailed'));
    }
  });

  if (sentTo) {
    return (
      <ResultCard kind="mail" title={t('signup.sentHeading')}>
        <Text c="dimmed" data-testid="signup-sent">
          {t('signup.sentText', { email: sentTo })}
        </Text>
      </ResultCard>
    );
  }

  return (
    <AuthLayout
      title={t('signup.heading')}
      footer={
        <>
          {t('signup.haveAccount')}{' '}
          <Anchor component={Link} to="/login" fz="sm" fw={600}>
            {t('signup.login')}
          </Anchor>
        </>
      }
    >
      <Center>
        {/* A Badge never wraps; on phones the Russian text would be cut off. */}
        <Text
          size="sm"
          fw={600}
          c="indigo"
          ta="center"
          bg="indigo.0"
          px="sm"
          py={4}
          style={{ borderRadius: 4 }}
        >
          {t('signup.trial')}
        </Text>
      </Center>
      <form onSubmit={onSubmit} noValidate data-testid="signup-form">
        <Stack gap="md">
          <TextInput label={t('signup.name')} autoComplete="name" autoFocus {...form.getInputProps('name')} />
          <TextInput
            label={t('signup.email')}
            type="email"
            autoComplete="email"
            {...form.getInputProps('email')}
          />
          <PasswordField
            label={t('signup.password')}
            description={t('signup.passwordHint')}
            autoComplete="new-password"
            {...form.getInputProps('password')}
          />
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
            <TextInput
              label={t('signup.company')}
              autoComplete="organization"
              {...form.getInputProps('company')}
            />
            <TextInput label={t('signup.promocode')} {...form.getInputProps('promocode')} />
          </SimpleGrid>
          <LocaleField
            label={t('signup.locale')}
            value={form.values.locale}
            onChange={(value) => isLocale(value) && form.setFieldValue('locale', value)}
          />
          <Button type="submit" fullWidth size="md" loading={signup.isPending}>
            {t('signup.submit')}
          </Button>
        </Stack>
      </form>
    </AuthLayout>
  );
}

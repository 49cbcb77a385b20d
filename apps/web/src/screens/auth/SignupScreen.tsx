import { Anchor, Button, Center, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { isLocale, signupFormSchema } from '@otklik/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { authApi } from '../../api/auth';
import { useKeptMutation } from '../../api/invalidating';
import { AuthLayout } from '../../components/AuthLayout';
import { PasswordField } from '../../components/PasswordField';
import { useRecaptcha } from '../../components/Recaptcha';
import { useZodForm } from '../../forms/useZodForm';
import { useLocale, useMessage } from '../../i18n/useLocale';
import { LocaleField } from './LocaleField';
import { SignupSentCard } from './SignupSentCard';
import { showSignupError } from './signupErrors';

function tariffFromQuery(value: string | null): number | undefined {
  const id = Number(value);
  return Number.isInteger(id) && id > 0 ? id : undefined;
}

/** /signup: a new workspace owner. Success → "we sent a link to <email>" (docs/product/states.md). */
export default function SignupScreen() {
  const { t } = useTranslation();
  const message = useMessage();
  const locale = useLocale();
  const [params] = useSearchParams();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const signup = useKeptMutation({ mutationFn: authApi.signup });
  const captcha = useRecaptcha();
  const { form, handleSubmit, setServerErrors } = useZodForm(signupFormSchema, {
    name: '',
    email: '',
    password: '',
    company: '',
    // A partner's link carries their code: /signup?promocode=…
    promocode: params.get('promocode') ?? '',
    locale,
  });

  const onSubmit = handleSubmit(async (data) => {
    const recaptchaToken = captcha.token();
    if (recaptchaToken === '') return captcha.setError(t('account.captchaRequired'));
    captcha.setError(null);
    try {
      const result = await signup.mutateAsync({
        ...data,
        promocode: data.promocode || undefined,
        tariff_id: tariffFromQuery(params.get('tariff_id')),
        recaptcha_token: recaptchaToken,
      });
      setSentTo(result.email || data.email);
    } catch (error) {
      captcha.reset(); // a token is single-use (SPEC: error_type captcha resets the captcha)
      setServerErrors(error);
      showSignupError(error, message('error.signupFailed'));
    }
  });

  if (sentTo) return <SignupSentCard email={sentTo} />;

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
          {captcha.widget}
          <Button type="submit" fullWidth size="md" loading={signup.isPending}>
            {t('signup.submit')}
          </Button>
        </Stack>
      </form>
    </AuthLayout>
  );
}

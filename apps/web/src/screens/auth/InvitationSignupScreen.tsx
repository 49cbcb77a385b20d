import { Button, Stack, Text, TextInput } from '@mantine/core';
import { invitationSignupFormSchema, isLocale, REDIRECT_AFTER_SIGNUP_MS } from '@otklik/shared';
import { IconLock } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { authApi } from '../../api/auth';
import { ApiError } from '../../api/client';
import { api } from '../../api/instance';
import { useKeptMutation } from '../../api/invalidating';
import { AuthLayout, AuthWaiting } from '../../components/AuthLayout';
import { PasswordField } from '../../components/PasswordField';
import { ResultCard } from '../../components/ResultCard';
import { useZodForm } from '../../forms/useZodForm';
import { useLocale, useMessage } from '../../i18n/useLocale';
import { LocaleField } from './LocaleField';
import { showSignupError } from './signupErrors';

/** /signup/{hash}: invitation signup — email locked, no company or promocode (docs/product/validation.md). */
export default function InvitationSignupScreen() {
  const { t } = useTranslation();
  const { hash = '' } = useParams();
  const invitation = useQuery({
    queryKey: ['invitation', hash],
    queryFn: () => authApi.getInvitation(hash),
    retry: false,
  });
  const [doneMessage, setDoneMessage] = useState<string | null>(null);

  if (doneMessage !== null) return <InvitationDone message={doneMessage} />;
  if (invitation.isPending) {
    return <AuthWaiting text={t('invitation.loading')} />;
  }
  if (invitation.isError) return <InvitationInvalid error={invitation.error} />;
  return <InvitationForm hash={hash} email={invitation.data.email} onDone={setDoneMessage} />;
}

/**
 * A used, revoked or unknown invitation (409), or a malformed link (400/404): said plainly, with the way to
 * sign in (or home, for someone already signed in). docs/product/errors.md's redirect to home left the visitor on /login
 * with no word of why; issue 13 asks for the reason.
 */
function InvitationInvalid({ error }: { error: Error }) {
  const { t } = useTranslation();
  const message = useMessage();
  const badLink = error instanceof ApiError && [400, 404, 409].includes(error.status);
  const signedIn = api.getToken() !== null;
  return (
    <ResultCard
      kind="error"
      title={t('invitation.invalidHeading')}
      action={
        signedIn ? { label: t('common.toHome'), to: '/' } : { label: t('common.toLogin'), to: '/login' }
      }
    >
      <Text c="dimmed" data-testid="invitation-invalid">
        {badLink ? message('error.invitationUsed') : error.message}
      </Text>
      {badLink && <Text c="dimmed">{t('invitation.invalidHint')}</Text>}
    </ResultCard>
  );
}

function InvitationForm({
  hash,
  email,
  onDone,
}: {
  hash: string;
  email: string;
  onDone: (message: string) => void;
}) {
  const { t } = useTranslation();
  const message = useMessage();
  const locale = useLocale();
  const queryClient = useQueryClient();
  const signup = useKeptMutation({
    mutationFn: (body: Parameters<typeof authApi.signupByInvitation>[1]) =>
      authApi.signupByInvitation(hash, body),
  });
  const { form, handleSubmit, setServerErrors } = useZodForm(invitationSignupFormSchema, {
    name: '',
    password: '',
    locale,
  });

  const onSubmit = handleSubmit(async (data) => {
    try {
      const result = await signup.mutateAsync(data);
      if (result.token) {
        queryClient.clear();
        api.setToken(result.token);
      }
      onDone(result.message);
    } catch (error) {
      setServerErrors(error);
      showSignupError(error, message('error.signupFailed'));
    }
  });

  return (
    <AuthLayout title={t('invitation.heading')} subtitle={t('invitation.text')}>
      <form onSubmit={onSubmit} noValidate data-testid="invitation-form">
        <Stack gap="md">
          <TextInput
            label={t('signup.email')}
            value={email}
            disabled
            readOnly
            rightSection={<IconLock size={16} />}
          />
          <TextInput label={t('signup.name')} autoComplete="name" autoFocus {...form.getInputProps('name')} />
          <PasswordField
            label={t('signup.password')}
            description={t('signup.passwordHint')}
            autoComplete="new-password"
            {...form.getInputProps('password')}
          />
          <LocaleField
            label={t('signup.locale')}
            value={form.values.locale}
            onChange={(value) => isLocale(value) && form.setFieldValue('locale', value)}
          />
          <Button type="submit" fullWidth size="md" loading={signup.isPending}>
            {t('invitation.submit')}
          </Button>
        </Stack>
      </form>
    </AuthLayout>
  );
}

/** Success page, then the workspace after a short notice (docs/product/limits.md: 1 s after signup). */
function InvitationDone({ message }: { message: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useEffect(() => {
    const timer = setTimeout(() => void navigate('/', { replace: true }), REDIRECT_AFTER_SIGNUP_MS);
    return () => clearTimeout(timer);
  }, [navigate]);
  return (
    <ResultCard
      kind="success"
      title={t('invitation.successHeading')}
      action={{ label: t('common.continue'), to: '/' }}
    >
      <Text c="dimmed" data-testid="invitation-done">
        {message || t('invitation.successText')}
      </Text>
    </ResultCard>
  );
}

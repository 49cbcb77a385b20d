import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { authApi } from '../../api/auth';
import { ApiError } from '../../api/client';
import { useKeptMutation } from '../../api/invalidating';
import { useRecaptcha } from '../../components/Recaptcha';
import { ResultCard } from '../../components/ResultCard';

/**
 * After signup: where the link went, "send again" (limited by the server) and the way to a wrong
 * address — sign in, the profile changes it (issue 13 item 10: no dead end).
 */
export function SignupSentCard({ email }: { email: string }) {
  const { t } = useTranslation();
  const captcha = useRecaptcha();
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const resend = useKeptMutation({
    mutationFn: (token?: string) => authApi.signupResend(email, token),
  });

  const sendAgain = async () => {
    const token = captcha.token();
    if (token === '') return captcha.setError(t('account.captchaRequired'));
    captcha.setError(null);
    try {
      await resend.mutateAsync(token);
      setResult({ ok: true, text: t('account.signupSentAgain', { email }) });
    } catch (error) {
      // A network error is reported by a toast; the server's 429 says when to try again.
      if (error instanceof ApiError) setResult({ ok: false, text: error.message });
    } finally {
      captcha.reset();
    }
  };

  return (
    <ResultCard kind="mail" title={t('signup.sentHeading')}>
      <Text c="dimmed" data-testid="signup-sent">
        {t('signup.sentText', { email })}
      </Text>
      <Stack gap="sm" w="100%">
        {result && (
          <Alert
            color={result.ok ? 'green' : 'red'}
            role={result.ok ? 'status' : 'alert'}
            data-testid="signup-resend-result"
          >
            {result.text}
          </Alert>
        )}
        {captcha.widget}
        <Button variant="light" onClick={sendAgain} loading={resend.isPending} fullWidth>
          {t('account.signupResend')}
        </Button>
        <Anchor component={Link} to="/login?redirect=%2Fsettings%2Fprofile" fz="sm">
          {t('account.signupWrongAddress')}
        </Anchor>
      </Stack>
    </ResultCard>
  );
}

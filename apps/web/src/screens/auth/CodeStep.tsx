import { Stack, Text, TextInput } from '@mantine/core';
import { OTP_CODE_MAX_LENGTH } from '@otklik/shared';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../../api/client';

// Two-factor authentication at login and on the password-reset form: the server answers the first try
// with code_required, and the form grows a code field (focused, the server's notice above it).

export function useCodeStep() {
  const [required, setRequired] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (required) ref.current?.focus();
  }, [required]);
  /** Whether the server's refusal asks for the code; if so, the code field appears. */
  const asksForCode = (error: ApiError) => {
    if (error.status !== 400 || error.errorType !== 'code_required') return false;
    setRequired(true);
    setNotice(error.message);
    return true;
  };
  return { required, notice, ref, asksForCode };
}

/** The code field, once the server asked for it; `inputProps`: the form's props of its `code` field. */
export function CodeField({
  step,
  testId,
  inputProps,
}: {
  step: ReturnType<typeof useCodeStep>;
  testId: string;
  inputProps: object;
}) {
  const { t } = useTranslation();
  if (!step.required) return null;
  return (
    <Stack gap={6}>
      {step.notice && (
        <Text fz="sm" c="indigo.8" role="status">
          {step.notice}
        </Text>
      )}
      <TextInput
        ref={step.ref}
        label={t('login.code')}
        description={t('login.codeHint')}
        autoComplete="one-time-code"
        maxLength={OTP_CODE_MAX_LENGTH}
        data-testid={testId}
        {...inputProps}
      />
    </Stack>
  );
}

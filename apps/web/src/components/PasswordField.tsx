import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * PasswordInput with a localized show/hide toggle. The toggle's label avoids the word "password" so
 * that the field stays the only match for its label ("Пароль" / "Password").
 */
export function PasswordField(props: PasswordInputProps) {
  const { t } = useTranslation();
  return (
    <PasswordInput visibilityToggleButtonProps={{ 'aria-label': t('common.showCharacters') }} {...props} />
  );
}

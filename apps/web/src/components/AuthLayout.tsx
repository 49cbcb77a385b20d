import { Box, Center, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LocaleSwitch } from './LocaleSwitch';
import { Logo } from './Logo';

interface AuthLayoutProps {
  title?: ReactNode;
  subtitle?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
}

/** Centered card with the logo — every public screen (login, signup, recovery…). */
export function AuthLayout({ title, subtitle, children, footer }: AuthLayoutProps) {
  const { t } = useTranslation();
  return (
    <Box
      mih="100dvh"
      px="md"
      py={{ base: 'lg', sm: 48 }}
      style={{
        background:
          'radial-gradient(1200px 600px at 50% -10%, var(--mantine-color-indigo-1), transparent 70%), var(--mantine-color-gray-0)',
      }}
    >
      <Center>
        <Stack w="100%" maw={440} gap="lg">
          <Stack align="center" gap={6}>
            <Logo size="lg" />
            <Text c="dimmed" fz="sm" ta="center">
              {t('app.tagline')}
            </Text>
          </Stack>
          <Paper withBorder shadow="sm" p={{ base: 'lg', sm: 32 }}>
            <Stack gap="lg">
              {(title || subtitle) && (
                <Stack gap={4}>
                  {title && (
                    <Title order={1} fz={24}>
                      {title}
                    </Title>
                  )}
                  {subtitle && (
                    <Text c="dimmed" fz="sm">
                      {subtitle}
                    </Text>
                  )}
                </Stack>
              )}
              {children}
            </Stack>
          </Paper>
          {footer && (
            <Text ta="center" fz="sm" c="dimmed" component="div">
              {footer}
            </Text>
          )}
          <LocaleSwitch />
        </Stack>
      </Center>
    </Box>
  );
}

/** The frame while something is checked or done (a link, a sign-in, a connection): a spinner and what it is. */
export function AuthWaiting({ text, testId }: { text?: ReactNode; testId?: string }) {
  return (
    <AuthLayout>
      <Center py="lg">
        <Stack align="center" gap="sm" data-testid={testId}>
          <Loader />
          {text && <Text c="dimmed">{text}</Text>}
        </Stack>
      </Center>
    </AuthLayout>
  );
}

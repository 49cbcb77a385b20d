import { Button, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck, IconMailCheck } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { AuthLayout } from './AuthLayout';

interface ResultCardProps {
  kind: 'success' | 'error' | 'mail';
  title: ReactNode;
  children?: ReactNode;
  action?: { label: string; to: string };
}

/** A public-screen outcome: confirmation sent, link invalid, done… */
export function ResultCard({ kind, title, children, action }: ResultCardProps) {
  const Icon = kind === 'error' ? IconAlertCircle : kind === 'mail' ? IconMailCheck : IconCircleCheck;
  return (
    <AuthLayout>
      <Stack align="center" ta="center" gap="md" role={kind === 'error' ? 'alert' : 'status'}>
        <ThemeIcon size={56} radius="xl" variant="light" color={kind === 'error' ? 'red' : 'indigo'}>
          <Icon size={30} />
        </ThemeIcon>
        <Text component="h1" fz={22} fw={650} m={0}>
          {title}
        </Text>
        {children}
        {action && (
          <Button component={Link} to={action.to} fullWidth mt="xs">
            {action.label}
          </Button>
        )}
      </Stack>
    </AuthLayout>
  );
}

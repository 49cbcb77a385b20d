import { Group, Text } from '@mantine/core';

interface LogoProps {
  size?: 'sm' | 'lg';
  /** Hide the name on phones, where the top bar needs the room. */
  compact?: boolean;
}

/** The product mark: a speech bubble and the name. */
export function Logo({ size = 'sm', compact = false }: LogoProps) {
  const box = size === 'lg' ? 36 : 28;
  return (
    <Group gap={8} wrap="nowrap" aria-label="Otklik">
      <svg width={box} height={box} viewBox="0 0 32 32" aria-hidden="true">
        <rect width="32" height="32" rx="8" fill="var(--mantine-color-indigo-6)" />
        <path
          d="M9 10h14a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2h-7l-5 4v-4H9a2 2 0 0 1-2-2v-8a2 2 0 0 1 2-2z"
          fill="#fff"
        />
      </svg>
      <Text
        component="span"
        fw={700}
        fz={size === 'lg' ? 26 : 20}
        lh={1}
        c="dark.8"
        style={{ letterSpacing: -0.3 }}
        visibleFrom={compact ? 'sm' : undefined}
      >
        Otklik
      </Text>
    </Group>
  );
}

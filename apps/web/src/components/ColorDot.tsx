import { ColorSwatch } from '@mantine/core';

/** A small colour mark (user statuses, slots). */
export function ColorDot({ color, size = 10 }: { color: string | null | undefined; size?: number }) {
  return <ColorSwatch color={color || 'var(--mantine-color-gray-4)'} size={size} withShadow={false} />;
}

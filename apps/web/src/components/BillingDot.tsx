import { ColorSwatch } from '@mantine/core';
import type { BillingState } from '@otklik/shared';

// docs/product/states.md billing state colours: the dot of the topbar billing menu and of settings/billing.

export const BILLING_COLORS: Record<BillingState, string> = {
  red: 'red',
  yellow: 'yellow',
  blue: 'blue',
  white: 'gray',
};

export function BillingDot({ state, size = 10 }: { state: BillingState; size?: number }) {
  return (
    <ColorSwatch
      size={size}
      withShadow={false}
      color={state === 'white' ? '#fff' : `var(--mantine-color-${BILLING_COLORS[state]}-6)`}
      style={state === 'white' ? { border: '1px solid var(--mantine-color-gray-4)' } : undefined}
      data-state={state}
    />
  );
}

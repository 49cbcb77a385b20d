import { Center, Loader, Stack } from '@mantine/core';
import { Logo } from '../components/Logo';

/** Above everything the page may show while it loads: Mantine's overlays, menus and toasts stay under 1,000. */
const SPLASH_Z_INDEX = 10_000;

/**
 * Loading splash (docs/product/screens-and-routes.md: about 0.4 s on start; also while the user loads).
 * `overlay`: laid over the page (the start's splash, RootLayout), which loads and renders beneath it.
 */
export function Splash({ overlay = false }: { overlay?: boolean }) {
  return (
    <Center
      h="100dvh"
      bg="gray.0"
      data-testid="splash"
      style={overlay ? { position: 'fixed', inset: 0, zIndex: SPLASH_Z_INDEX } : undefined}
    >
      <Stack align="center" gap="lg">
        <Logo size="lg" />
        <Loader size="sm" type="dots" />
      </Stack>
    </Center>
  );
}

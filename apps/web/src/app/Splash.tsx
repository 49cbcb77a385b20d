import { Center, Loader, Stack } from '@mantine/core';
import { Logo } from '../components/Logo';

/** Loading splash (docs/product/screens-and-routes.md: about 0.4 s on start; also while the user loads). */
export function Splash() {
  return (
    <Center h="100dvh" bg="gray.0" data-testid="splash">
      <Stack align="center" gap="lg">
        <Logo size="lg" />
        <Loader size="sm" type="dots" />
      </Stack>
    </Center>
  );
}

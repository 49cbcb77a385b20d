import { ActionIcon, Button, CopyButton, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';

/**
 * Copies `value` and says so for a moment: a light button whose text turns from `label` to `copiedLabel`
 * (green); with `icon`, a small gray copy icon that turns into a teal check, `label` its tooltip and name.
 */
export function ClipboardButton({
  value,
  label,
  copiedLabel,
  icon = false,
  testId,
}: {
  value: string;
  label: string;
  copiedLabel: string;
  icon?: boolean;
  testId?: string;
}) {
  return (
    <CopyButton value={value}>
      {({ copied, copy }) =>
        icon ? (
          <Tooltip label={copied ? copiedLabel : label}>
            <ActionIcon
              variant="subtle"
              color={copied ? 'teal' : 'gray'}
              onClick={copy}
              aria-label={label}
              data-testid={testId}
            >
              {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
            </ActionIcon>
          </Tooltip>
        ) : (
          <Button variant="light" onClick={copy} color={copied ? 'green' : undefined} data-testid={testId}>
            {copied ? copiedLabel : label}
          </Button>
        )
      }
    </CopyButton>
  );
}

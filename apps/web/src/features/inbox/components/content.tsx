import { Anchor, Badge, Button, Group, Image, SimpleGrid, Text, Tooltip } from '@mantine/core';
import {
  IconAlertTriangle,
  IconCheck,
  IconChecks,
  IconClock,
  IconFile,
  IconRefresh,
} from '@tabler/icons-react';
import type { Attachment, DeliveryState } from '../../../api/inboxTypes';
import { useInboxT } from '../i18n';

// What customers and operators wrote: text (always as text, never HTML), attachments, delivery state.

/** Only http(s) links are followed; anything else is shown as its name. */
const safeUrl = (url: string) => (/^https?:\/\//i.test(url) ? url : null);

export function Attachments({ items }: { items: Attachment[] }) {
  if (items.length === 0) return null;
  const images = items.filter((a) => (a.type === 'image' || a.type === 'sticker') && safeUrl(a.url));
  const others = items.filter((a) => !images.includes(a));
  return (
    <>
      {images.length > 0 && (
        <SimpleGrid cols={{ base: 2, sm: 3 }} spacing={6} mt={6} maw={420} data-testid="attachments">
          {images.map((a) => (
            <Anchor key={a.url} href={safeUrl(a.url)!} target="_blank" rel="noreferrer noopener">
              <Image src={a.url} alt={a.name ?? ''} radius="sm" h={110} fit="cover" />
            </Anchor>
          ))}
        </SimpleGrid>
      )}
      {others.length > 0 && (
        <Group gap={6} mt={6}>
          {others.map((a) => {
            const url = safeUrl(a.url);
            return a.type === 'video' && url ? (
              // biome-ignore lint/a11y/useMediaCaption: customers' videos come without captions
              <video
                key={a.url}
                src={url}
                controls
                style={{ maxWidth: 320, maxHeight: 240, borderRadius: 6 }}
              />
            ) : (
              <Badge
                key={a.url}
                variant="default"
                leftSection={<IconFile size={12} />}
                style={{ textTransform: 'none' }}
              >
                {url ? (
                  <Anchor href={url} target="_blank" rel="noreferrer noopener" fz="xs">
                    {a.name ?? a.type}
                  </Anchor>
                ) : (
                  (a.name ?? a.type)
                )}
              </Badge>
            );
          })}
        </Group>
      )}
    </>
  );
}

/** Our reply's way to the network: queued → sent, or failed with the network's error and Retry. */
export function Delivery({
  state,
  error,
  onRetry,
  retrying,
}: {
  state: DeliveryState;
  error: string | null;
  onRetry?: () => void;
  retrying?: boolean;
}) {
  const t = useInboxT();
  if (state === 'received') return null;
  if (state === 'failed') {
    return (
      <Group gap={6} wrap="wrap" data-testid="delivery" data-state={state}>
        <Badge
          color="red"
          variant="light"
          leftSection={<IconAlertTriangle size={12} />}
          style={{ textTransform: 'none' }}
        >
          {t('delivery.failed')}
        </Badge>
        {error && (
          <Text fz="xs" c="red.8" data-testid="delivery-error">
            {error}
          </Text>
        )}
        {onRetry && (
          <Button
            size="compact-xs"
            variant="light"
            color="red"
            leftSection={<IconRefresh size={12} />}
            onClick={onRetry}
            loading={retrying}
            data-testid="delivery-retry"
          >
            {t('delivery.retry')}
          </Button>
        )}
      </Group>
    );
  }
  const icon =
    state === 'queued' || state === 'sending' ? (
      <IconClock size={12} />
    ) : state === 'sent' ? (
      <IconCheck size={12} />
    ) : (
      <IconChecks size={12} />
    );
  return (
    <Tooltip label={t(`delivery.${state}`)}>
      <Text
        component="span"
        fz="xs"
        c="dimmed"
        data-testid="delivery"
        data-state={state}
        style={{ display: 'inline-flex', alignItems: 'center', gap: 3 }}
      >
        {icon}
        {t(`delivery.${state}`)}
      </Text>
    </Tooltip>
  );
}

/** Plain text with line breaks kept. */
export function PlainText({ text, dimmed }: { text: string; dimmed?: boolean }) {
  return (
    <Text
      fz="sm"
      style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
      c={dimmed ? 'dimmed' : undefined}
    >
      {text}
    </Text>
  );
}

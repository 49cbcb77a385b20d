import { Anchor, Badge, Button, Group, Image, SimpleGrid, Skeleton, Text, Tooltip } from '@mantine/core';
import {
  IconAlertTriangle,
  IconCheck,
  IconChecks,
  IconClock,
  IconFile,
  IconHourglass,
  IconRefresh,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { Attachment, DeliveryState } from '../../../api/inboxTypes';
import { api } from '../../../api/instance';
import { showError } from '../../../components/notify';
import { useFailureText } from '../../../i18n/useLocale';
import { useInboxT } from '../i18n';

// What customers and operators wrote: text (always as text, never HTML), attachments, delivery state.

/** Only http(s) links are followed as they are; network references go through our media proxy. */
const safeUrl = (url: string) => (/^https?:\/\//i.test(url) ? url : null);

/** Whose attachments these are: files behind a network's token are fetched via `/v1/{kind}/{id}/…`. */
export interface AttachmentOwner {
  kind: 'items' | 'messages' | 'posts';
  id: number;
}

const proxyPath = (owner: AttachmentOwner, index: number) =>
  `/v1/${owner.kind}/${owner.id}/attachments/${index}`;

/** The file as a blob (with the session's token), kept for the page's life. */
function useMediaBlob(path: string | null) {
  return useQuery({
    queryKey: ['media', path],
    queryFn: ({ signal }) => api.get<Blob>(path!, { signal, responseType: 'blob', forbiddenPage: false }),
    enabled: path !== null,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}

function useObjectUrl(blob: Blob | undefined) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) return;
    const made = URL.createObjectURL(blob);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [blob]);
  return url;
}

function ProxiedImage({ path, name }: { path: string; name?: string }) {
  const media = useMediaBlob(path);
  const url = useObjectUrl(media.data);
  if (media.isError)
    return (
      <Text fz="xs" c="red.8" data-testid="attachment-error">
        {media.error.message}
      </Text>
    );
  if (!url) return <Skeleton h={110} radius="sm" data-testid="attachment-loading" />;
  return (
    <Anchor href={url} target="_blank" rel="noreferrer noopener">
      <Image src={url} alt={name ?? ''} radius="sm" h={110} fit="cover" data-testid="attachment-image" />
    </Anchor>
  );
}

/** A picture the network links to; once its link has expired, the copy Otklik kept. */
function WebImage({ url, path, name }: { url: string; path: string | null; name?: string }) {
  const [broken, setBroken] = useState(false);
  if (broken && path) return <ProxiedImage path={path} name={name} />;
  return (
    <Anchor href={url} target="_blank" rel="noreferrer noopener">
      <Image src={url} alt={name ?? ''} radius="sm" h={110} fit="cover" onError={() => setBroken(true)} />
    </Anchor>
  );
}

/** A file behind the session's token (a network's, a task comment's): downloaded when asked for. */
export function ProxiedFile({ path, name }: { path: string; name: string }) {
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      const blob = await api.get<Blob>(path, { responseType: 'blob', forbiddenPage: false });
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = name;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (error) {
      showError(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Anchor
      component="button"
      type="button"
      fz="xs"
      onClick={download}
      disabled={busy}
      data-testid="attachment-file"
    >
      {name}
    </Anchor>
  );
}

export function Attachments({ items, owner }: { items: Attachment[]; owner?: AttachmentOwner }) {
  if (items.length === 0) return null;
  const indexed = items.map((a, index) => ({
    a,
    index,
    url: safeUrl(a.url),
    path: owner ? proxyPath(owner, index) : null,
  }));
  const isPicture = (a: Attachment) => a.type === 'image' || a.type === 'sticker';
  const images = indexed.filter(({ a, url, path }) => isPicture(a) && (url || path));
  const others = indexed.filter((entry) => !images.includes(entry));
  return (
    <>
      {images.length > 0 && (
        <SimpleGrid cols={{ base: 2, sm: 3 }} spacing={6} mt={6} maw={420} data-testid="attachments">
          {images.map(({ a, index, url, path }) =>
            url ? (
              <WebImage key={index} url={url} path={path} name={a.name} />
            ) : (
              <ProxiedImage key={index} path={path!} name={a.name} />
            ),
          )}
        </SimpleGrid>
      )}
      {others.length > 0 && (
        <Group gap={6} mt={6}>
          {others.map(({ a, index, url, path }) =>
            a.type === 'video' && url ? (
              // biome-ignore lint/a11y/useMediaCaption: customers' videos come without captions
              <video
                key={index}
                src={url}
                controls
                style={{ maxWidth: 320, maxHeight: 240, borderRadius: 6 }}
              />
            ) : (
              <Badge
                key={index}
                variant="default"
                leftSection={<IconFile size={12} />}
                style={{ textTransform: 'none' }}
              >
                {url ? (
                  <Anchor href={url} target="_blank" rel="noreferrer noopener" fz="xs">
                    {a.name ?? a.type}
                  </Anchor>
                ) : path ? (
                  <ProxiedFile path={path} name={a.name ?? a.type} />
                ) : (
                  (a.name ?? a.type)
                )}
              </Badge>
            ),
          )}
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
  onWithdraw,
}: {
  state: DeliveryState;
  error: string | null;
  onRetry?: () => void;
  retrying?: boolean;
  /** Approval mode: the author takes back a reply still waiting for a reviewer. */
  onWithdraw?: () => void;
}) {
  const t = useInboxT();
  const failureText = useFailureText();
  if (state === 'received') return null;
  if (state === 'approval') {
    return (
      <Group gap={6} wrap="wrap" data-testid="delivery" data-state={state}>
        <Tooltip label={t('delivery.approvalHint')}>
          <Badge
            color="yellow"
            variant="light"
            leftSection={<IconHourglass size={12} />}
            style={{ textTransform: 'none' }}
          >
            {t('delivery.approval')}
          </Badge>
        </Tooltip>
        {onWithdraw && (
          <Button
            size="compact-xs"
            variant="subtle"
            color="gray"
            onClick={onWithdraw}
            data-testid="delivery-withdraw"
          >
            {t('delivery.withdraw')}
          </Button>
        )}
      </Group>
    );
  }
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
            {failureText(error)}
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

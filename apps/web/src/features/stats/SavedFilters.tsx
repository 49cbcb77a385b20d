import { ActionIcon, Button, Group, Menu, Popover, Stack, Text, TextInput } from '@mantine/core';
import { savedFilterNameSchema } from '@otklik/shared';
import type { RouteQuery } from '@otklik/shared/routes';
import { IconBookmark, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeleteFilter, useSaveFilter } from '../../api/inbox';
import { showError, showSaved } from '../../components/notify';
import { useMessage } from '../../i18n/useLocale';
import { useShell } from '../../shell/ShellContext';

// Saved stats filters (docs/product/screens-and-routes.md: saved filters keyed by route, stats ones with
// none): the period and filters of the frame under a name — pick one to apply it, delete, save the current.

export function SavedStatsFilters({
  query,
  onApply,
}: {
  /** The frame's current address query (statsQueryOf), saved as is. */
  query: RouteQuery;
  onApply: (query: Record<string, unknown>) => void;
}) {
  const { t } = useTranslation();
  const message = useMessage();
  const { config } = useShell();
  const saveFilter = useSaveFilter();
  const deleteFilter = useDeleteFilter();
  const [saving, setSaving] = useState(false);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const saved = config.filters.filter((f) => f.route === null);

  const save = () => {
    const parsed = savedFilterNameSchema.safeParse({ name });
    if (!parsed.success) {
      setError(message(parsed.error.issues[0]?.message ?? 'filter.name.required'));
      return;
    }
    setError(null);
    const clean = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== null));
    saveFilter.mutate(
      { name: parsed.data.name, query: clean, route: 'stats' },
      {
        onSuccess: () => {
          setName('');
          setSaving(false);
          showSaved(t('shell.stats.saved.saved'));
        },
        onError: showError,
      },
    );
  };

  return (
    <Group gap="xs" wrap="wrap">
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button variant="default" leftSection={<IconBookmark size={16} />} data-testid="stats-saved">
            {t('shell.stats.saved.menu')}
          </Button>
        </Menu.Target>
        <Menu.Dropdown data-testid="stats-saved-menu">
          {saved.length === 0 && (
            <Text c="dimmed" fz="sm" px="sm" py={6}>
              {t('shell.stats.saved.none')}
            </Text>
          )}
          {saved.map((f) => (
            <Menu.Item
              key={f.id}
              onClick={() => onApply(f.query)}
              data-testid="stats-saved-item"
              rightSection={
                <ActionIcon
                  component="span"
                  variant="subtle"
                  color="red"
                  size="sm"
                  aria-label={t('shell.stats.saved.delete', { name: f.name })}
                  data-testid="stats-saved-delete"
                  onClick={(event) => {
                    event.stopPropagation();
                    deleteFilter.mutate(f.id, {
                      onSuccess: () => showSaved(t('shell.stats.saved.deleted')),
                      onError: showError,
                    });
                  }}
                >
                  <IconTrash size={14} />
                </ActionIcon>
              }
            >
              {f.name}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
      <Popover opened={saving} onChange={setSaving} position="bottom-end" withinPortal trapFocus>
        <Popover.Target>
          <Button variant="subtle" onClick={() => setSaving((o) => !o)} data-testid="stats-save">
            {t('shell.stats.saved.save')}
          </Button>
        </Popover.Target>
        <Popover.Dropdown>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              save();
            }}
          >
            <Stack gap="xs" w={260}>
              <TextInput
                label={t('shell.stats.saved.name')}
                placeholder={t('shell.stats.saved.namePlaceholder')}
                value={name}
                onChange={(event) => setName(event.currentTarget.value)}
                error={error}
                maxLength={255}
                data-testid="stats-save-name"
              />
              <Button type="submit" loading={saveFilter.isPending} data-testid="stats-save-submit">
                {t('shell.stats.saved.submit')}
              </Button>
            </Stack>
          </form>
        </Popover.Dropdown>
      </Popover>
    </Group>
  );
}

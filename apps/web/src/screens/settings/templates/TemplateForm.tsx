import { ActionIcon, Button, Checkbox, Group, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { listConnectableProviders, type TemplateDto, templateFormSchema } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { IconPlus, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useCreateTemplate, useUpdateTemplate } from '../../../api/templates';
import { FormCard, FormPartTitle } from '../../../components/FormCard';
import { type FieldErrors, issueErrors } from '../../../components/fieldErrors';
import { showError, showSaved } from '../../../components/notify';
import { PageHeader } from '../../../components/PageHeader';
import { useInboxT } from '../../../features/inbox/i18n';
import { useMessage } from '../../../i18n/useLocale';

// The create/edit form of a reply template, checked by the shared zod schema the server uses too.

export function TemplateForm({
  template,
  spaceId,
  canManageSpace,
}: {
  template?: TemplateDto;
  spaceId: number;
  canManageSpace: boolean;
}) {
  const t = useInboxT();
  const message = useMessage();
  const navigate = useNavigate();
  const create = useCreateTemplate();
  const update = useUpdateTemplate();
  const [title, setTitle] = useState(template?.title ?? '');
  const [folder, setFolder] = useState(template?.folder ?? '');
  const [text, setText] = useState(template?.text ?? '');
  // A user who may not manage the space's templates can only make personal ones.
  const [personal, setPersonal] = useState(template ? template.user_id !== null : !canManageSpace);
  const [variants, setVariants] = useState<Array<[string, string]>>(Object.entries(template?.variants ?? {}));
  const [variables, setVariables] = useState(template?.variables ?? []);
  const [errors, setErrors] = useState<FieldErrors>({});
  const readOnly = template !== undefined && template.user_id === null && !canManageSpace;
  const providers = listConnectableProviders();
  const unused = providers.filter((p) => !variants.some(([id]) => id === p.id));

  const submit = () => {
    const parsed = templateFormSchema.safeParse({
      title,
      text,
      folder,
      personal,
      variants: Object.fromEntries(variants),
      variables,
    });
    if (!parsed.success) {
      setErrors(issueErrors(parsed.error.issues, message));
      return;
    }
    setErrors({});
    const done = {
      onSuccess: () => {
        showSaved(t('replyTemplates.saved'));
        navigate(pathFor('settings-templates', {}, { space_id: spaceId }));
      },
      onError: showError,
    };
    const { personal: isPersonal, ...body } = parsed.data;
    if (template) update.mutate({ id: template.id, ...body }, done);
    else create.mutate({ ...body, personal: isPersonal, space_id: spaceId }, done);
  };

  return (
    <Stack gap="lg" maw={720}>
      <PageHeader title={template ? template.title : t('replyTemplates.newTitle')} />
      <FormCard onSubmit={submit}>
        <TextInput
          label={t('replyTemplates.title')}
          value={title}
          onChange={(e) => setTitle(e.currentTarget.value)}
          error={errors.title}
          maxLength={200}
          disabled={readOnly}
          data-testid="template-title"
        />
        <TextInput
          label={t('replyTemplates.folder')}
          value={folder}
          onChange={(e) => setFolder(e.currentTarget.value)}
          error={errors.folder}
          maxLength={100}
          disabled={readOnly}
        />
        <Textarea
          label={t('replyTemplates.text')}
          description={t('replyTemplates.textHint')}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          error={errors.text}
          autosize
          minRows={4}
          disabled={readOnly}
          data-testid="template-text"
        />
        {!template && (
          <Checkbox
            label={t('replyTemplates.personal')}
            description={t('replyTemplates.personalHint')}
            checked={personal}
            disabled={!canManageSpace}
            onChange={(e) => setPersonal(e.currentTarget.checked)}
          />
        )}

        <FormPartTitle title={t('replyTemplates.variants')} hint={t('replyTemplates.variantsHint')} />
        {variants.map(([provider, value], index) => (
          <Group key={provider} align="flex-start" wrap="nowrap">
            <Text fz="sm" w={120} pt={6} style={{ flexShrink: 0 }}>
              {providers.find((p) => p.id === provider)?.name ?? provider}
            </Text>
            <Textarea
              style={{ flex: 1 }}
              aria-label={t('replyTemplates.variants')}
              value={value}
              onChange={(e) => {
                const v = e.currentTarget.value;
                setVariants((list) => list.map((row, i) => (i === index ? [row[0], v] : row)));
              }}
              autosize
              minRows={2}
              disabled={readOnly}
            />
            <RemoveRow
              label={t('replyTemplates.remove')}
              onClick={() => setVariants((list) => list.filter((_, i) => i !== index))}
              disabled={readOnly}
            />
          </Group>
        ))}
        {errors.variants && (
          <Text fz="xs" c="red">
            {errors.variants}
          </Text>
        )}
        {!readOnly && unused.length > 0 && (
          <Select
            placeholder={t('replyTemplates.addVariant')}
            aria-label={t('replyTemplates.addVariant')}
            data={unused.map((p) => ({ value: p.id, label: p.name }))}
            value={null}
            onChange={(id) => id && setVariants((list) => [...list, [id, '']])}
            searchable
            maw={320}
          />
        )}

        <FormPartTitle title={t('replyTemplates.variables')} />
        {variables.map((v, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no id while being typed
          <Group key={index} align="flex-start" wrap="nowrap">
            <TextInput
              placeholder={t('replyTemplates.variableName')}
              aria-label={t('replyTemplates.variableName')}
              value={v.name}
              onChange={(e) => {
                const name = e.currentTarget.value;
                setVariables((list) => list.map((row, i) => (i === index ? { ...row, name } : row)));
              }}
              error={errors[`variables.${index}.name`]}
              w={180}
              disabled={readOnly}
            />
            <TextInput
              style={{ flex: 1 }}
              placeholder={t('replyTemplates.variableDefault')}
              aria-label={t('replyTemplates.variableDefault')}
              value={v.default}
              onChange={(e) => {
                const value = e.currentTarget.value;
                setVariables((list) =>
                  list.map((row, i) => (i === index ? { ...row, default: value } : row)),
                );
              }}
              disabled={readOnly}
            />
            <RemoveRow
              label={t('replyTemplates.remove')}
              onClick={() => setVariables((list) => list.filter((_, i) => i !== index))}
              disabled={readOnly}
            />
          </Group>
        ))}
        {errors.variables && (
          <Text fz="xs" c="red">
            {errors.variables}
          </Text>
        )}
        {!readOnly && (
          <Group>
            <Button
              variant="subtle"
              size="compact-sm"
              leftSection={<IconPlus size={14} />}
              onClick={() => setVariables((list) => [...list, { name: '', default: '' }])}
            >
              {t('replyTemplates.addVariable')}
            </Button>
          </Group>
        )}

        <Group mt="sm">
          {!readOnly && (
            <Button type="submit" loading={create.isPending || update.isPending} data-testid="template-save">
              {template ? t('common.save') : t('common.create')}
            </Button>
          )}
          <Button
            variant="default"
            component={Link}
            to={pathFor('settings-templates', {}, { space_id: spaceId })}
          >
            {t('common.cancel')}
          </Button>
        </Group>
      </FormCard>
    </Stack>
  );
}

/** The remove button at the end of a variant's or a variable's row. */
function RemoveRow({ label, onClick, disabled }: { label: string; onClick: () => void; disabled: boolean }) {
  return (
    <ActionIcon variant="subtle" color="gray" mt={4} aria-label={label} onClick={onClick} disabled={disabled}>
      <IconX size={16} />
    </ActionIcon>
  );
}

import { Badge, Button, Grid, Group, Paper, SegmentedControl, Stack, Text, Textarea } from '@mantine/core';
import { type QaCriterion, type QaScore, qaTotal } from '@otklik/shared';
import { IconSparkles } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useAiScore, useReview, useSample } from '../../api/qa';
import { showError, showSaved } from '../../components/notify';
import { PageHeader } from '../../components/PageHeader';
import { PlainText } from '../../features/inbox/components/content';
import { providerName } from '../../features/inbox/components/ProviderIcon';
import { useLocale } from '../../i18n/useLocale';
import { formatDateTime } from '../../lib/format';
import { RecordLoading } from '../../shell/RecordNotFound';
import { useShell } from '../../shell/ShellContext';

// Quality check (issue 21, docs/product/qa.md): qa (overview), qa/review (the reviewer's queue), qa/my
// (the operator's own results), qa/stats (scores by week, operator and criterion), qa/items/:id and
// qa/chats/:id (a sample: the conversation with the scorecard beside it; :id is the sample's id).

// A sampled reply with its conversation and the scorecard beside it (qa/items/:id, qa/chats/:id).
import { pct, seconds } from './QaScreens';

function Scorecard({
  sampleId,
  spaceId,
  criteria,
  initial,
  initialComment,
  canReview,
}: {
  sampleId: number;
  spaceId: number;
  criteria: QaCriterion[];
  initial: QaScore[];
  initialComment: string;
  canReview: boolean;
}) {
  const { t } = useTranslation();
  const review = useReview();
  const [values, setValues] = useState<Record<string, number>>(() =>
    Object.fromEntries(initial.map((s) => [s.id, s.value])),
  );
  const [comment, setComment] = useState(initialComment);
  const { objects } = useShell();
  const aiScore = useAiScore();
  const [proposedBy, setProposedBy] = useState<string | null>(null);
  // AI pre-scoring (issue 21) where the space has an agent the reviewer may use: a proposal that fills
  // the form; the reviewer checks it and saves it as their own review.
  const hasAgent = (objects?.ai_agents ?? []).some((a) => a.space_id === spaceId);
  const propose = () =>
    aiScore.mutate(sampleId, {
      onSuccess: (res) => {
        setValues((prev) => ({ ...prev, ...res.scores }));
        if (res.comment) setComment((prev) => (prev.trim() ? prev : res.comment));
        setProposedBy(res.agent.name);
      },
      onError: showError,
    });
  const scored = criteria
    .filter((c) => values[c.id] !== undefined)
    .map((c) => ({ ...c, value: values[c.id]! }));
  const preview = scored.length === criteria.length ? qaTotal(scored) : null;
  return (
    <Stack gap="sm" data-testid="qa-scorecard">
      {canReview && hasAgent && (
        <Button
          variant="light"
          color="violet"
          size="compact-sm"
          leftSection={<IconSparkles size={14} />}
          loading={aiScore.isPending}
          onClick={propose}
          style={{ alignSelf: 'flex-start' }}
          data-testid="qa-ai-score"
        >
          {t('shell.qa.sample.aiScore')}
        </Button>
      )}
      {proposedBy && (
        <Text fz="xs" c="violet" data-testid="qa-ai-note">
          {t('shell.qa.sample.aiProposed', { name: proposedBy })}
        </Text>
      )}
      {criteria.map((c) => (
        <Stack key={c.id} gap={4}>
          <Group gap={6}>
            <Text fz="sm" fw={500}>
              {c.name}
            </Text>
            <Text fz="xs" c="dimmed">
              {t('shell.qa.sample.weight', { weight: c.weight })}
            </Text>
            {c.critical && (
              <Badge size="xs" color="red" variant="light">
                {t('shell.qa.sample.critical')}
              </Badge>
            )}
          </Group>
          <SegmentedControl
            size="xs"
            fullWidth
            disabled={!canReview}
            value={values[c.id] === undefined ? '' : String(values[c.id])}
            onChange={(v) => setValues((prev) => ({ ...prev, [c.id]: Number(v) }))}
            data-testid={`qa-criterion-${c.name}`}
            data={
              c.kind === 'yesno'
                ? [
                    { value: '1', label: t('shell.qa.sample.yes') },
                    { value: '0', label: t('shell.qa.sample.no') },
                  ]
                : ['1', '2', '3', '4', '5'].map((v) => ({ value: v, label: v }))
            }
          />
        </Stack>
      ))}
      <Textarea
        label={t('shell.qa.sample.comment')}
        value={comment}
        onChange={(e) => setComment(e.currentTarget.value)}
        disabled={!canReview}
        autosize
        minRows={2}
        data-testid="qa-comment"
      />
      <Group justify="space-between">
        <Text fw={600} data-testid="qa-total">
          {t('shell.qa.sample.total')}: {preview ? pct(preview.total) : '—'}
        </Text>
        {canReview && (
          <Button
            loading={review.isPending}
            disabled={!preview}
            data-testid="qa-save"
            onClick={() =>
              review.mutate(
                { id: sampleId, body: { scores: values, comment } },
                { onSuccess: () => showSaved(t('shell.qa.sample.saved')), onError: showError },
              )
            }
          >
            {t('shell.qa.sample.save')}
          </Button>
        )}
      </Group>
      {preview?.criticalFailed && (
        <Text fz="xs" c="red">
          {t('shell.qa.sample.criticalFailed')}
        </Text>
      )}
      {!canReview && (
        <Text fz="xs" c="dimmed">
          {t('shell.qa.sample.readOnly')}
        </Text>
      )}
    </Stack>
  );
}

/** qa/items/:id and qa/chats/:id */
export function QaSampleScreen() {
  const { t } = useTranslation();
  const locale = useLocale();
  const id = Number(useParams().id);
  const sample = useSample(id);
  if (!sample.data) return <RecordLoading query={sample} notFoundTitle={t('shell.qa.sample.notFound')} />;
  const s = sample.data;
  return (
    <Stack gap="lg">
      <PageHeader title={t(s.kind === 'item' ? 'titles.qa-item' : 'titles.qa-chat')} />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Paper withBorder p="md" radius="md">
            <Stack gap="sm">
              <Group justify="space-between" gap="xs">
                <Text fw={600}>{t('shell.qa.sample.conversation')}</Text>
                <Text fz="xs" c="dimmed">
                  {s.object_name} · {providerName(s.provider)} · {t(`shell.qa.source.${s.source}`)}
                </Text>
              </Group>
              {s.conversation.map((line) => (
                <Paper
                  key={line.id}
                  withBorder
                  radius="md"
                  p="sm"
                  ml={line.is_own ? { base: 16, sm: 40 } : 0}
                  bg={line.is_sample ? 'yellow.0' : line.is_own ? 'indigo.0' : undefined}
                  style={line.is_sample ? { borderColor: 'var(--mantine-color-yellow-6)' } : undefined}
                  data-testid={line.is_sample ? 'qa-reply' : 'qa-line'}
                >
                  <Group justify="space-between" gap="xs" mb={4} wrap="nowrap">
                    <Text fz="xs" fw={600} truncate="end">
                      {line.author ?? (line.is_own ? '' : t('shell.qa.sample.customer'))}
                      {line.is_sample ? ` · ${t('shell.qa.sample.reply')}` : ''}
                    </Text>
                    <Text fz="xs" c="dimmed" style={{ flexShrink: 0 }}>
                      {formatDateTime(seconds(line.created_at), locale)}
                    </Text>
                  </Group>
                  <PlainText text={line.text} />
                </Paper>
              ))}
            </Stack>
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Paper withBorder p="md" radius="md">
            <Stack gap="sm">
              <Text fw={600}>{t('shell.qa.sample.scorecard', { name: s.scorecard_name })}</Text>
              <Text fz="xs" c="dimmed">
                {t('shell.qa.sample.operator')}: {s.operator?.name ?? '—'}
                {s.reviewer ? ` · ${t('shell.qa.my.by', { name: s.reviewer.name })}` : ''}
              </Text>
              <Scorecard
                key={`${s.id}-${s.reviewed_at ?? ''}`}
                sampleId={s.id}
                spaceId={s.space_id}
                criteria={s.criteria}
                initial={s.scores}
                initialComment={s.comment}
                canReview={s.can_review}
              />
            </Stack>
          </Paper>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

/** qa/stats */

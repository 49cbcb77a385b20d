import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

// The classifier's reading of a received text (issue 21): negative, positive or anger. Neutral shows
// nothing — most texts are, and a badge on each would be noise.

const COLOR = { negative: 'red', positive: 'green', anger: 'red' } as const;

export function EmotionBadge({ sentiment, emotion }: { sentiment?: string | null; emotion?: string | null }) {
  const { t } = useTranslation();
  const value =
    emotion === 'anger' ? 'anger' : sentiment === 'negative' || sentiment === 'positive' ? sentiment : null;
  if (!value) return null;
  const label = t(`shell.emotions.sentiment.${value}`);
  return (
    <Badge
      size="xs"
      variant={value === 'anger' ? 'filled' : 'light'}
      color={COLOR[value]}
      title={t('shell.emotions.badge', { value: label })}
      data-testid="emotion-badge"
      data-emotion={value}
    >
      {label}
    </Badge>
  );
}

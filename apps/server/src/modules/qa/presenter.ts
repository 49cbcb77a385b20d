import type { QaLine, QaSampleDetailDto, QaSampleDto, QaScorecardDto } from '@otklik/shared';
import type { qaScorecards } from '../../db/schema';
import type { SampleRow } from './service';

export function presentScorecard(row: typeof qaScorecards.$inferSelect): QaScorecardDto {
  return {
    id: row.id,
    space_id: row.spaceId,
    name: row.name,
    criteria: row.criteria,
    random_percent: row.randomPercent,
    conditions: row.conditions,
    active: row.active,
    updated_at: row.updatedAt.toISOString(),
  };
}

export function presentSample(row: SampleRow): QaSampleDto {
  const s = row.sample;
  return {
    id: s.id,
    space_id: s.spaceId,
    scorecard_id: s.scorecardId,
    scorecard_name: row.scorecardName,
    kind: s.kind,
    item_id: s.itemId,
    chat_id: s.chatId,
    object_id: s.objectId,
    object_name: row.objectName,
    provider: row.provider,
    operator: row.operatorName === null ? null : { id: s.operatorId, name: row.operatorName },
    reply_text: row.replyText,
    reply_at: s.replyAt.toISOString(),
    source: s.source,
    week: s.week,
    status: s.status,
    reviewer:
      s.reviewerId === null || row.reviewerName === null
        ? null
        : { id: s.reviewerId, name: row.reviewerName },
    scores: s.scores,
    comment: s.comment,
    total: s.total,
    critical_failed: s.criticalFailed,
    reviewed_at: s.reviewedAt?.toISOString() ?? null,
  };
}

export function presentSampleDetail(
  row: SampleRow,
  card: typeof qaScorecards.$inferSelect,
  conversation: QaLine[],
  canReview: boolean,
): QaSampleDetailDto {
  return { ...presentSample(row), criteria: card.criteria, conversation, can_review: canReview };
}

import { type QaAiScoreDto, type QaCriterion, type QaLine, qaValueValid } from '@otklik/shared';
import type { Db } from '../../db/client';
import type { Sealer } from '../../lib/crypto';
import { AppError } from '../../lib/errors';
import { listAgents } from '../ai/service';
import { type ChatMessage, complete } from '../ai/suggest';

// AI pre-scoring of a quality-check review (issue 21): the space's first AI agent reads the sampled
// conversation and the scorecard and proposes a value per criterion and a comment. Only the one sample's
// conversation and the criteria go into the prompt; the answer is a proposal the reviewer confirms —
// values outside a criterion's scale are dropped, nothing is stored here.

const COMMENT_MAX = 1000;

export function scoringPrompt(criteria: QaCriterion[], conversation: QaLine[]): ChatMessage[] {
  const lines = conversation
    .filter((line) => line.text.trim())
    .map(
      (line) =>
        `${line.is_sample ? '>>> ' : ''}${line.is_own ? 'Operator' : `Customer${line.author ? ` (${line.author})` : ''}`}: ${line.text}`,
    )
    .join('\n');
  const list = criteria
    .map(
      (c) =>
        `- id "${c.id}": ${c.name} (${c.kind === 'yesno' ? 'answer 1 for yes, 0 for no' : 'a score from 1 to 5'}${c.critical ? ', critical' : ''})`,
    )
    .join('\n');
  return [
    {
      role: 'system',
      content:
        'You are a quality reviewer of a customer-support team. You assess one operator reply (marked >>>) in its conversation against a scorecard. A human reviewer checks your proposal.',
    },
    {
      role: 'user',
      content: `Conversation:\n${lines || '(empty)'}\n\nScorecard:\n${list}\n\nAnswer only with JSON: {"scores": {"<criterion id>": <value>, …}, "comment": "<one or two sentences for the operator, in the conversation's language>"}.`,
    },
  ];
}

/** The valid part of the agent's answer: the first JSON object in it, values checked per criterion. */
export function parseScoring(answer: string, criteria: QaCriterion[]): Omit<QaAiScoreDto, 'agent'> {
  const start = answer.indexOf('{');
  const end = answer.lastIndexOf('}');
  let parsed: { scores?: unknown; comment?: unknown } = {};
  if (start !== -1 && end > start) {
    try {
      parsed = JSON.parse(answer.slice(start, end + 1)) as typeof parsed;
    } catch {
      parsed = {};
    }
  }
  const given =
    parsed.scores && typeof parsed.scores === 'object' ? (parsed.scores as Record<string, unknown>) : {};
  const scores: Record<string, number> = {};
  for (const c of criteria) {
    const value = given[c.id];
    if (typeof value === 'number' && Number.isInteger(value) && qaValueValid(c.kind, value))
      scores[c.id] = value;
  }
  const comment = typeof parsed.comment === 'string' ? parsed.comment.trim().slice(0, COMMENT_MAX) : '';
  return { scores, comment };
}

export async function aiScore(
  db: Db,
  sealer: Sealer,
  timeoutMs: number,
  sample: { spaceId: number },
  criteria: QaCriterion[],
  conversation: QaLine[],
): Promise<QaAiScoreDto> {
  const [agent] = await listAgents(db, [sample.spaceId]);
  if (!agent) throw new AppError(409, 'qa.ai.noAgent', { errorType: 'ai_agent' });
  const answer = await complete(agent, sealer, scoringPrompt(criteria, conversation), timeoutMs);
  const proposal = parseScoring(answer, criteria);
  if (Object.keys(proposal.scores).length === 0)
    throw new AppError(502, 'qa.ai.unreadable', { errorType: 'ai_provider' });
  return { agent: { id: agent.id, name: agent.name }, ...proposal };
}

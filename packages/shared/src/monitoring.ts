import { z } from 'zod';

// Monitoring (issue 21): keyword queries over public content. A query is a boolean expression:
//   доставка AND NOT спасибо · "служба доставки" OR курьер · (заказ OR доставка) AND -спасибо
// Words and "quoted phrases" are matched case-insensitively as whole words (ё = е) in the text; AND binds
// tighter than OR; juxtaposition means AND; NOT / a leading "-" negates; `a NEAR/3 b` — both words (or
// phrases) with at most 3 other words between them, in either order (NEAR alone means NEAR/5; it binds
// tighter than AND and takes words or phrases on both sides). Operators are accepted in Russian too
// (И, ИЛИ, НЕ, РЯДОМ). The same parser validates in the form (web) and on the server, and matches
// in the ingestion pipeline. Error keys are message keys (messages.ts, ru/en).

export const MONITORING_QUERY_MAX = 1000;
export const MONITORING_NAME_MAX = 120;
/** Queries per space. */
export const MONITORING_QUERIES_MAX = 50;
export const MONITORING_PAGE_SIZE = 30;
/** NEAR without a number; and the largest number NEAR/n accepts. */
export const MONITORING_NEAR_DEFAULT = 5;
export const MONITORING_NEAR_MAX = 50;

export type MonitoringNode =
  | { type: 'term'; words: string[] }
  | { type: 'near'; left: string[]; right: string[]; distance: number }
  | { type: 'not'; node: MonitoringNode }
  | { type: 'and' | 'or'; nodes: MonitoringNode[] };

export type MonitoringParseError =
  | 'monitoring.query.empty'
  | 'monitoring.query.quote'
  | 'monitoring.query.paren'
  | 'monitoring.query.operator'
  | 'monitoring.query.onlyNot'
  | 'monitoring.query.near'
  | 'monitoring.query.tooLong';

export type MonitoringParse = { ok: true; node: MonitoringNode } | { ok: false; error: MonitoringParseError };

type Token =
  | { t: 'word'; words: string[] }
  | { t: 'and' }
  | { t: 'or' }
  | { t: 'not' }
  | { t: 'near'; distance: number }
  | { t: '(' }
  | { t: ')' };

/** Lower case, ё → е, split into word tokens (letters, digits, and inner ' - _ @ #). */
export function monitoringWords(text: string): string[] {
  return (
    text
      .toLowerCase()
      .replace(/ё/g, 'е')
      .match(/[\p{L}\p{N}@#_]+(?:['’-][\p{L}\p{N}_]+)*/gu) ?? []
  );
}

const OPERATORS: Record<string, Token> = {
  AND: { t: 'and' },
  И: { t: 'and' },
  OR: { t: 'or' },
  ИЛИ: { t: 'or' },
  NOT: { t: 'not' },
  НЕ: { t: 'not' },
};

class Fail extends Error {
  constructor(readonly key: MonitoringParseError) {
    super(key);
  }
}

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (/\s/.test(c)) {
      i += 1;
    } else if (c === '(' || c === ')') {
      tokens.push({ t: c });
      i += 1;
    } else if (c === '"' || c === '«' || c === '“') {
      const close = c === '"' ? '"' : c === '«' ? '»' : '”';
      const end = source.indexOf(close, i + 1);
      if (end < 0) throw new Fail('monitoring.query.quote');
      const words = monitoringWords(source.slice(i + 1, end));
      if (words.length === 0) throw new Fail('monitoring.query.empty');
      tokens.push({ t: 'word', words });
      i = end + 1;
    } else if (
      c === '-' &&
      (tokens.length === 0 || tokens[tokens.length - 1]!.t !== 'word' || /\s/.test(source[i - 1] ?? ' '))
    ) {
      tokens.push({ t: 'not' });
      i += 1;
    } else {
      let end = i;
      while (end < source.length && !/[\s()"«“]/.test(source[end]!)) end += 1;
      const raw = source.slice(i, end);
      i = end;
      const near = /^(?:NEAR|РЯДОМ)(?:\/(\d{1,3}))?$/.exec(raw);
      if (near) {
        const distance = near[1] === undefined ? MONITORING_NEAR_DEFAULT : Number(near[1]);
        if (distance > MONITORING_NEAR_MAX) throw new Fail('monitoring.query.near');
        tokens.push({ t: 'near', distance });
        continue;
      }
      const op = OPERATORS[raw];
      if (op) {
        tokens.push(op);
        continue;
      }
      const words = monitoringWords(raw);
      if (words.length === 0) throw new Fail('monitoring.query.operator');
      tokens.push({ t: 'word', words });
    }
  }
  return tokens;
}

/** Parses a query; never throws. */
export function parseMonitoringQuery(source: string): MonitoringParse {
  if (source.length > MONITORING_QUERY_MAX) return { ok: false, error: 'monitoring.query.tooLong' };
  try {
    const tokens = tokenize(source);
    if (tokens.length === 0) return { ok: false, error: 'monitoring.query.empty' };
    let pos = 0;
    const peek = () => tokens[pos];
    const orExpr = (): MonitoringNode => {
      const nodes = [andExpr()];
      while (peek()?.t === 'or') {
        pos += 1;
        nodes.push(andExpr());
      }
      return nodes.length === 1 ? nodes[0]! : { type: 'or', nodes };
    };
    const andExpr = (): MonitoringNode => {
      const nodes = [unary()];
      for (;;) {
        const next = peek();
        if (next?.t === 'and') {
          pos += 1;
          nodes.push(unary());
        } else if (next && (next.t === 'word' || next.t === 'not' || next.t === '(')) {
          nodes.push(unary());
        } else break;
      }
      return nodes.length === 1 ? nodes[0]! : { type: 'and', nodes };
    };
    const unary = (): MonitoringNode => {
      const next = peek();
      if (!next) throw new Fail('monitoring.query.operator');
      if (next.t === 'not') {
        pos += 1;
        return { type: 'not', node: unary() };
      }
      if (next.t === '(') {
        pos += 1;
        if (peek()?.t === ')') throw new Fail('monitoring.query.empty');
        const inner = orExpr();
        if (peek()?.t !== ')') throw new Fail('monitoring.query.paren');
        pos += 1;
        return inner;
      }
      if (next.t === 'word') {
        pos += 1;
        const pairs: MonitoringNode[] = [];
        let left = next.words;
        while (peek()?.t === 'near') {
          const near = peek() as { t: 'near'; distance: number };
          pos += 1;
          const right = peek();
          if (right?.t !== 'word') throw new Fail('monitoring.query.near');
          pos += 1;
          pairs.push({ type: 'near', left, right: right.words, distance: near.distance });
          left = right.words;
        }
        if (pairs.length === 0) return { type: 'term', words: next.words };
        return pairs.length === 1 ? pairs[0]! : { type: 'and', nodes: pairs };
      }
      if (next.t === 'near') throw new Fail('monitoring.query.near');
      if (next.t === ')') throw new Fail('monitoring.query.paren');
      throw new Fail('monitoring.query.operator');
    };
    const node = orExpr();
    if (pos < tokens.length)
      throw new Fail(tokens[pos]!.t === ')' ? 'monitoring.query.paren' : 'monitoring.query.operator');
    if (!hasPositive(node)) return { ok: false, error: 'monitoring.query.onlyNot' };
    return { ok: true, node };
  } catch (error) {
    if (error instanceof Fail) return { ok: false, error: error.key };
    throw error;
  }
}

/** A query must ask for something: a pure negation would match nearly everything. */
function hasPositive(node: MonitoringNode): boolean {
  switch (node.type) {
    case 'term':
    case 'near':
      return true;
    case 'not':
      return false;
    case 'and':
      return node.nodes.some(hasPositive);
    case 'or':
      return node.nodes.every(hasPositive);
  }
}

/** A text prepared once for many queries. */
export function monitoringText(text: string): string[] {
  return monitoringWords(text);
}

/** Start positions of a phrase in the words. */
function phraseAt(words: string[], phrase: string[]): number[] {
  const found: number[] = [];
  outer: for (let i = 0; i + phrase.length <= words.length; i += 1) {
    for (let j = 0; j < phrase.length; j += 1) if (words[i + j] !== phrase[j]) continue outer;
    found.push(i);
  }
  return found;
}

function hasPhrase(words: string[], phrase: string[]): boolean {
  return phraseAt(words, phrase).length > 0;
}

/** Both phrases with at most `distance` other words between them, either order, not overlapping. */
function isNear(words: string[], left: string[], right: string[], distance: number): boolean {
  const lefts = phraseAt(words, left);
  if (lefts.length === 0) return false;
  const rights = phraseAt(words, right);
  for (const a of lefts)
    for (const b of rights) {
      const gap = a < b ? b - (a + left.length) : a - (b + right.length);
      if (gap >= 0 && gap <= distance) return true;
    }
  return false;
}

/** Does the node match these words (from monitoringText)? */
export function matchesMonitoring(node: MonitoringNode, words: string[]): boolean {
  switch (node.type) {
    case 'term':
      return hasPhrase(words, node.words);
    case 'near':
      return isNear(words, node.left, node.right, node.distance);
    case 'not':
      return !matchesMonitoring(node.node, words);
    case 'and':
      return node.nodes.every((n) => matchesMonitoring(n, words));
    case 'or':
      return node.nodes.some((n) => matchesMonitoring(n, words));
  }
}

export const monitoringQueryInputSchema = z.object({
  space_id: z.number({ error: 'field.invalid' }).int('field.invalid').positive('field.invalid'),
  name: z
    .string({ error: 'monitoring.name.required' })
    .trim()
    .min(1, 'monitoring.name.required')
    .max(MONITORING_NAME_MAX, 'field.tooLong'),
  query: z
    .string({ error: 'monitoring.query.empty' })
    .trim()
    .superRefine((value, ctx) => {
      const parsed = parseMonitoringQuery(value);
      if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.error });
    }),
});
export type MonitoringQueryInput = z.infer<typeof monitoringQueryInputSchema>;

export const monitoringQueryWireSchema = z.object({
  id: z.number().int(),
  space_id: z.number().int(),
  name: z.string(),
  query: z.string(),
  unread: z.number().int(),
  total: z.number().int(),
  created_at: z.number().int(),
});
export type MonitoringQueryDto = z.infer<typeof monitoringQueryWireSchema>;

/** GET /v1/monitoring/queries: the queries with their counts, and the spaces where one may add them. */
export const monitoringQueriesWireSchema = z.object({
  items: z.array(monitoringQueryWireSchema),
  spaces: z.array(z.number().int()),
});
export type MonitoringQueriesWire = z.infer<typeof monitoringQueriesWireSchema>;

export const monitoringMentionWireSchema = z.object({
  id: z.number().int(),
  query_id: z.number().int(),
  item_id: z.number().int(),
  object_id: z.number().int(),
  provider: z.string(),
  text: z.string(),
  author_name: z.string().nullable(),
  url: z.string().nullable(),
  matched_at: z.number().int(),
  read: z.boolean(),
  /** The classifier's reading of the text (null: not classified). */
  sentiment: z.string().nullable(),
  /** The underlying item's inbox status and tags (the mention actions change them). */
  status: z.string(),
  tag_ids: z.array(z.number().int()),
});
export type MonitoringMentionDto = z.infer<typeof monitoringMentionWireSchema>;

/** A page of a query's mentions, newest first (`page` in the query; `has_more` when another follows). */
export const monitoringMentionsWireSchema = z.object({
  items: z.array(monitoringMentionWireSchema),
  has_more: z.boolean(),
});
export type MonitoringMentionsWire = z.infer<typeof monitoringMentionsWireSchema>;

/** Mentions marked read: how many changed (the query's, and YouScan's topic's). */
export const monitoringMentionsReadWireSchema = z.object({ updated: z.number().int() });

/** POST /v1/monitoring/mentions/{id}/inbox: the item, its status now, and whether it was reopened. */
export const mentionToInboxWireSchema = z.object({
  item_id: z.number().int(),
  status: z.string(),
  reopened: z.boolean(),
});
export type MentionToInboxWire = z.infer<typeof mentionToInboxWireSchema>;

/** POST /v1/monitoring/mentions/{id}/issue: the task made from it. */
export const mentionIssueWireSchema = z.object({
  id: z.number().int(),
  space_id: z.number().int(),
  title: z.string(),
});
export type MentionIssueWire = z.infer<typeof mentionIssueWireSchema>;

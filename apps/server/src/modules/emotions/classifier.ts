import {
  ANGER_EMOJI,
  ANGER_STEMS,
  CONTRASTS,
  DAMPENERS,
  EMOJI_SCORES,
  EN_LEXICON,
  INTENSIFIERS,
  NEGATED_ONLY,
  NEGATION_SINKS,
  NEGATORS,
  RU_LEXICON,
} from './lexicon';

// The offline sentiment classifier of incoming texts (docs/product/emotions.md): Russian and English
// word lists matched by stem, with negation ("не", "not", "n't" flip the next three words), intensifiers
// and dampeners, "но/but" (what follows counts double what came before), emoji and emoticons, shouting
// (capitals, "!!!"). The score's sign gives negative / neutral / positive; anger words, angry emoji or
// shouting on a negative text give the category `anger`. Pure and synchronous: it runs inside the
// ingestion transaction on every text (bench/emotions.bench.ts).

export type Sentiment = 'negative' | 'neutral' | 'positive';
export type EmotionCategory = 'anger';
export interface Emotion {
  sentiment: Sentiment;
  emotion: EmotionCategory | null;
  score: number;
}

/** A space's own words: each listed word counts as this (docs/product/emotions.md override words). */
export type WordOverrides = ReadonlyMap<string, Sentiment>;

interface Lexicon {
  exact: Map<string, number>;
  stems: Map<string, number>;
}

function parseLexicon(...lists: string[]): Lexicon {
  const lexicon: Lexicon = { exact: new Map(), stems: new Map() };
  for (const list of lists)
    for (const entry of list.split(/\s+/)) {
      if (!entry) continue;
      const [word = '', scoreText] = entry.split(':');
      const score = scoreText === undefined ? 1 : Number(scoreText);
      if (word.endsWith('=')) lexicon.exact.set(word.slice(0, -1), score);
      else lexicon.stems.set(word, score);
    }
  return lexicon;
}

const MAX_STEM = 16;
const MIN_STEM = 3;

function lookup(lexicon: Lexicon, word: string): number | undefined {
  const exact = lexicon.exact.get(word);
  if (exact !== undefined) return exact;
  for (let n = Math.min(word.length, MAX_STEM); n >= MIN_STEM; n--) {
    const hit = lexicon.stems.get(n === word.length ? word : word.slice(0, n));
    if (hit !== undefined) return hit;
  }
  return undefined;
}

const SENTIMENT = parseLexicon(RU_LEXICON, EN_LEXICON);
const NEGATED = parseLexicon(NEGATED_ONLY);
const ANGER = parseLexicon(ANGER_STEMS);
const SINKS = parseLexicon(NEGATION_SINKS);

/** What the lists say about one normalised word; remembered, since words repeat across texts. */
interface WordInfo {
  value: number | undefined;
  negated: number | undefined;
  anger: boolean;
  sink: boolean;
  intensity: number | undefined;
}
const MEMO_MAX = 50_000;
const memo = new Map<string, WordInfo>();

function infoOf(word: string): WordInfo {
  let info = memo.get(word);
  if (info) return info;
  const value = lookup(SENTIMENT, word);
  info = {
    value,
    negated: lookup(NEGATED, word),
    anger: lookup(ANGER, word) !== undefined,
    sink: lookup(SINKS, word) !== undefined,
    intensity: value === undefined ? (INTENSIFIERS.get(word) ?? DAMPENERS.get(word)) : undefined,
  };
  if (memo.size >= MEMO_MAX) memo.clear();
  memo.set(word, info);
  return info;
}

/** Letters (with ' inside English words), or one pictograph, or an emoticon. */
const TOKEN =
  /[\p{L}\p{M}]+(?:['’-][\p{L}]+)*|\p{Extended_Pictographic}|[:;=]-?[)(DP]|\){2,}|\({2,}|!{2,}|\?{2,}|[.,;:!?…—–]/gu;
const NEGATION_WINDOW = 3;
/** Only the start of a long text is read: the mood of a letter shows in its first lines. */
export const SAMPLE_MAX = 2_000;
const THRESHOLD = 0.75;
/** Politeness in a question ("подскажите, пожалуйста… спасибо?") is manners, not a mood. */
const POLITE = new Set([
  'спасибо',
  'спасибочки',
  'благодарю',
  'thanks',
  'thank',
  'thx',
  'please',
  'пожалуйста',
]);
/** A question that asks for something ("подскажите…?", "how do I…?") reports less mood than it names. */
const ASKING = new Set(['подскажите', 'подскажи', 'скажите', 'уточните', 'подскажете', 'could', 'please']);
const INTERROGATIVES = new Set([
  'как',
  'где',
  'когда',
  'можно',
  'какой',
  'какая',
  'какие',
  'сколько',
  'есть',
  'могу',
  'нужно',
  'нужен',
  'how',
  'what',
  'where',
  'when',
  'which',
  'can',
  'could',
  'do',
  'does',
  'is',
  'should',
  'will',
]);
/** "Добрый день", "good evening": greetings, not praise. */
const GREETED = new Set(['morning', 'evening', 'afternoon', 'night', 'day']);
/** "претензий нет", "проблем нет": "нет" after a negative word turns it. */
const AFTER_NEGATORS = new Set(['нет', 'нету']);

const FOLD = /[ё'’]/;

export function normaliseWord(word: string) {
  const lower = word.toLowerCase();
  return FOLD.test(lower) ? lower.replaceAll('ё', 'е').replaceAll(/['’]/g, '') : lower;
}

/** Classifies one text. `overrides`: the space's words, which win over the built-in lists. */
export function classify(text: string, overrides?: WordOverrides): Emotion {
  const sample = text.length > SAMPLE_MAX ? text.slice(0, SAMPLE_MAX) : text;
  const tokens = sample.match(TOKEN);
  if (!tokens) return { sentiment: 'neutral', emotion: null, score: 0 };
  const question = sample.includes('?');
  let before = 0;
  let after = 0;
  let contrasted = false;
  let negateLeft = 0;
  let boost = 1;
  let anger = 0;
  let shouted = 0;
  let letters = 0;
  let bangs = 0;
  let asking = false;
  let lastAdded = 0;
  let lastAt = -10;
  for (let i = 0; i < tokens.length; i++) {
    const raw = tokens[i] as string;
    const first = raw.codePointAt(0) ?? 0;
    let value: number | undefined;
    if (raw.length <= 2 && first > 0x2000) {
      // A pictograph (variation selectors are not tokens).
      value = EMOJI_SCORES[raw];
      if (ANGER_EMOJI.has(raw)) anger += 1;
      if (value === undefined) continue;
    } else if (raw[0] === ':' || raw[0] === ';' || raw[0] === '=') {
      value = raw.includes('(') ? -1 : 1;
    } else if (raw[0] === ')') {
      value = 1;
    } else if (raw[0] === '(') {
      value = -1;
    } else if (raw[0] === '!' && raw.length > 1) {
      bangs += 1;
      continue;
    } else if (raw.length === 1 && '.,;:!?…—–'.includes(raw)) {
      // A clause ends: negation and intensity do not cross it.
      negateLeft = 0;
      boost = 1;
      lastAt = -10;
      continue;
    } else {
      if (raw.length >= 4) {
        letters += 1;
        if (raw === raw.toUpperCase() && raw !== raw.toLowerCase()) shouted += 1;
      }
      let word = normaliseWord(raw);
      if (word.length > 24) word = word.slice(0, 24);
      const info = infoOf(word);
      if (ASKING.has(word) || (i === 0 && INTERROGATIVES.has(word))) asking = true;
      if (AFTER_NEGATORS.has(word) && lastAdded < 0 && i - lastAt === 1) {
        add(-lastAdded - lastAdded * 0.6);
        lastAdded = 0;
        continue;
      }
      if (NEGATORS.has(word)) {
        negateLeft = NEGATION_WINDOW;
        continue;
      }
      if (
        (word === 'good' && GREETED.has(normaliseWord(tokens[i + 1] ?? ''))) ||
        (word === 'kind' && normaliseWord(tokens[i + 1] ?? '') === 'of')
      )
        continue;
      if (negateLeft > 0 && info.sink) {
        negateLeft = 0;
        continue;
      }
      if (CONTRASTS.has(word)) {
        contrasted = true;
        negateLeft = 0;
        boost = 1;
        continue;
      }
      const own = overrides?.get(word);
      if (info.intensity !== undefined && own === undefined) {
        boost *= info.intensity;
        continue;
      }
      if (own !== undefined) value = own === 'positive' ? 2 : own === 'negative' ? -2 : 0;
      else {
        value = info.value;
        if (info.anger) anger += negateLeft > 0 ? 0 : 1;
        if (negateLeft > 0) {
          if (info.negated !== undefined) {
            // "не работает": negative; "не рекомендую": the positive word's weight, turned.
            value = value === undefined || value < 0 ? -1.5 : -Math.max(value, 1.5);
            // "Заказ ещё не отправлен?" asks; "не работает" reports.
            if (question) value *= 0.4;
            negateLeft = 0;
            add(value * boost, i);
            boost = 1;
            continue;
          }
        }
        if (value !== undefined && question && POLITE.has(word)) value *= 0.3;
      }
      if (value === undefined) {
        if (negateLeft > 0) negateLeft -= 1;
        continue;
      }
      if (negateLeft > 0) {
        // "не плохо" is faint praise, "not good" is a complaint.
        value = value < 0 ? -value * 0.6 : -value;
        negateLeft = 0;
      }
    }
    add(value * boost, i);
    boost = 1;
  }
  function add(v: number, at?: number) {
    if (contrasted) after += v;
    else before += v;
    if (at !== undefined) {
      lastAdded = v;
      lastAt = at;
    }
  }
  let score = contrasted ? before * 0.5 + after * 1.5 : before;
  const shouting = letters >= 2 && shouted / letters >= 0.6;
  if (shouting || bangs > 0) score *= 1.3;
  // "ВЕРНИТЕ ДЕНЬГИ!!!": shouting with nothing kind in it.
  if (shouting && bangs > 0 && score <= 0) score -= 1;
  if (question && asking) score *= 0.5;
  const sentiment: Sentiment = score >= THRESHOLD ? 'positive' : score <= -THRESHOLD ? 'negative' : 'neutral';
  const angry = sentiment === 'negative' && (anger > 0 || (shouting && bangs > 0));
  return { sentiment, emotion: angry ? 'anger' : null, score: Math.round(score * 100) / 100 };
}

/** The space's override list as the classifier reads it (normalised words). */
export function overridesOf(words: ReadonlyArray<{ word: string; sentiment: Sentiment }>): WordOverrides {
  return new Map(words.map((w) => [normaliseWord(w.word.trim()), w.sentiment]));
}

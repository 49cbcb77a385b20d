// Offline language detection for the auto-rules' "language" condition (issue 17): ru, en or other.
// No dictionary package: the scripts of the letters decide, then a few telling letters and words.
// - No letters at all (emoji, digits, a link alone): no language (null) — no language condition matches.
// - Mostly Cyrillic: Russian, unless it has letters Russian does not use (Ukrainian і ї є ґ, Belarusian ў,
//   Serbian/Macedonian ђ ј љ њ ћ џ ѓ ќ ѕ, Kazakh ә ғ қ ң ө ұ ү һ, ...): other.
// - Mostly Latin: other when it has letters with diacritics English does not write (é ñ ü ß å ł ç ...), or
//   when it is three words or more and none of them is a common English word; else English.
// - Mostly any other script (Arabic, CJK, Greek, Georgian, Armenian, ...): other.
// A short Latin text of one or two words without diacritics counts as English ("ok", "thanks").

export const RULE_LANGUAGES = ['ru', 'en', 'other'] as const;
export type RuleLanguage = (typeof RULE_LANGUAGES)[number];

const NOT_RUSSIAN_CYRILLIC = /[іїєґўђјљњћџѓќѕәғқңөұүһӣӯҷҳ]/iu;
const NOT_ENGLISH_LATIN = /[à-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĵķĺļľłńņňŉōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžșț]/iu;
const ENGLISH_WORDS = new Set(
  (
    'the a an and or but is are was were be been am i you he she it we they me my your our their his her ' +
    'this that these those to of in on at for with from by not no yes do does did have has had can could ' +
    'will would should please thanks thank hi hello what when where why how who which there here all ' +
    'any just so if about out up get got ok okay very good bad great order help need want'
  ).split(' '),
);

/** The language of a text (its first 4,000 characters), or null when it has no letters. */
export function detectLanguage(input: string): RuleLanguage | null {
  // Links, addresses and handles are Latin in any language: they are not looked at.
  const text = input.slice(0, 4_000).replace(/(?:https?:\/\/|www\.)\S+|\S+@\S+|[@#]\S+/giu, ' ');
  let cyrillic = 0;
  let latin = 0;
  let other = 0;
  for (const ch of text) {
    if (/\p{Script=Cyrillic}/u.test(ch)) cyrillic += 1;
    else if (/\p{Script=Latin}/u.test(ch)) latin += 1;
    else if (/\p{L}/u.test(ch)) other += 1;
  }
  const letters = cyrillic + latin + other;
  if (letters === 0) return null;
  const words = text
    .toLocaleLowerCase()
    .split(/[^\p{L}']+/u)
    .filter(Boolean);
  if (cyrillic >= latin && cyrillic >= other) return NOT_RUSSIAN_CYRILLIC.test(text) ? 'other' : 'ru';
  if (other > latin) return 'other';
  if (NOT_ENGLISH_LATIN.test(text)) return 'other';
  const latinWords = words.filter((w) => /^[a-z']+$/u.test(w));
  if (latinWords.length < 3) return 'en';
  return latinWords.some((w) => ENGLISH_WORDS.has(w.replace(/'.*$/u, ''))) ? 'en' : 'other';
}

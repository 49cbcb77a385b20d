import type { ShellResources } from './shell.ru';

// Emotions (issue 21): the sentiment labels every screen shares, settings/emotions and stats/emotions.
export const emotionsEn: ShellResources['emotions'] = {
  label: 'Emotion',
  sentiment: {
    negative: 'Negative',
    neutral: 'Neutral',
    positive: 'Positive',
    anger: 'Anger',
  },
  stats: {
    byDay: 'Share of negative, neutral and positive by day, %',
    byAccount: 'By account',
    byNetwork: 'By network',
    byPost: 'By post',
    negativeShare: 'Negative share',
  },
  badge: 'Emotion: {{value}}',
  settings: {
    heading: 'Emotions',
    hint: 'Every incoming comment and message is rated negative, neutral or positive, and a sharp negative one is also marked “anger”. The rating shows in the lists and drives the filter, auto-rules and statistics. The classifier runs on the server, with no outside service.',
    enabled: 'Rate emotions in this space',
    enabledHint: 'When off, new conversations arrive without a rating; rated ones keep theirs.',
    words: 'Your own words',
    wordsHint:
      'Words that mean something else in your field: “sick” is praise for a skate shop. A listed word weighs more than the classifier’s dictionary. Applies to new conversations.',
    word: 'Word',
    meaning: 'Means',
    add: 'Add a word',
    remove: 'Remove',
    empty: 'No words of your own yet.',
    save: 'Save',
    saved: 'Emotion settings saved',
    off: 'Emotion settings are for administrators on special tariffs.',
  },
};

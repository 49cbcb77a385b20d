import { MATCH_END, MATCH_START } from '@otklik/shared';
import { describe, expect, it } from 'vitest';
import { matchParts } from './match';

const found = (word: string) => `${MATCH_START}${word}${MATCH_END}`;

describe('matchParts', () => {
  it('splits a passage into plain and found parts', () => {
    expect(matchParts(`Но ${found('заказ')} потерялся, ${found('заказ')}!`)).toEqual([
      { text: 'Но ', found: false },
      { text: 'заказ', found: true },
      { text: ' потерялся, ', found: false },
      { text: 'заказ', found: true },
      { text: '!', found: false },
    ]);
  });

  it('keeps a passage without marks whole, and drops stray marks', () => {
    expect(matchParts('plain text')).toEqual([{ text: 'plain text', found: false }]);
    expect(matchParts(`a${MATCH_END}b ${MATCH_START}c`)).toEqual([{ text: 'ab c', found: false }]);
    expect(matchParts('')).toEqual([]);
  });

  it('treats markup in the passage as text', () => {
    expect(matchParts(`<b>${found('x')}</b>`)).toEqual([
      { text: '<b>', found: false },
      { text: 'x', found: true },
      { text: '</b>', found: false },
    ]);
  });
});

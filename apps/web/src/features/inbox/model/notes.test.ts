import { describe, expect, it } from 'vitest';
import { decodeMentions, encodeMentions, insertMention, matchColleagues, mentionQuery } from './notes';

const anna = { id: 12, name: 'Анна' };
const annaMaria = { id: 13, name: 'Анна Мария' };
const boris = { id: 14, name: 'Борис Петров' };

describe('note mentions', () => {
  it('finds the @query before the caret, not inside a word or an e-mail', () => {
    expect(mentionQuery('Привет @Ан', 10)).toEqual({ start: 7, query: 'Ан' });
    expect(mentionQuery('@', 1)).toEqual({ start: 0, query: '' });
    expect(mentionQuery('mail@host', 9)).toBeNull();
    expect(mentionQuery('@Анна готово', 12)).toBeNull();
  });

  it('matches by the start of any word first', () => {
    expect(matchColleagues([anna, annaMaria, boris], 'пет')).toEqual([boris]);
    expect(matchColleagues([anna, boris, annaMaria], 'ан').map((c) => c.id)).toEqual([12, 13]);
  });

  it('inserts the picked name and stores ids, longer names first; decodes back for editing', () => {
    const at = mentionQuery('Смотри @Ан', 10)!;
    const inserted = insertMention('Смотри @Ан', at, annaMaria);
    expect(inserted).toEqual({ text: 'Смотри @Анна Мария ', caret: 19 });
    const sent = encodeMentions(`${inserted.text}и @Анна`, [anna, annaMaria]);
    expect(sent).toBe('Смотри <@13> и <@12>');
    const names = new Map([
      [12, 'Анна'],
      [13, 'Анна Мария'],
    ]);
    expect(decodeMentions(sent, (id) => names.get(id)!)).toEqual({
      text: 'Смотри @Анна Мария и @Анна',
      picked: [annaMaria, anna],
    });
  });
});

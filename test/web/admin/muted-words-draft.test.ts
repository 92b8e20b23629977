import { describe, expect, it } from 'vitest';
import { refusedWords, wordsFromTyping } from '../../../src/web/admin/moderation/muted-words-draft.js';

describe('typing muted words as tags', () => {
  it('splits at commas and leaves out empty pieces, keeping each word as typed inside', () => {
    expect(wordsFromTyping(' estafa, Pésimo ,, muy  malo ')).toEqual(['estafa', 'Pésimo', 'muy  malo']);
    expect(wordsFromTyping('   ')).toEqual([]);
  });
});

describe("reading the server's refusal of a list", () => {
  it('pairs each refused word with its message in list order, and keeps the whole-list refusal apart', () => {
    const sent = ['bien', 'Pésimo', 'pesimo', 'x'.repeat(41)];
    const fields = { 'words.3': 'larga', 'words.2': 'repetida', words: 'demasiadas', other: 'ignorada' };
    expect(refusedWords(sent, fields)).toEqual({
      words: [
        { index: 2, word: 'pesimo', message: 'repetida' },
        { index: 3, word: 'x'.repeat(41), message: 'larga' },
      ],
      list: 'demasiadas',
    });
  });

  it('ignores a field naming a place the list does not have', () => {
    expect(refusedWords(['uno'], { 'words.5': 'fuera' })).toEqual({ words: [], list: null });
  });
});

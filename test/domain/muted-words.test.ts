import { describe, expect, it } from 'vitest';
import { containsMutedWord, MUTED_WORD_MAX_LENGTH, mutedWordsIssues } from '../../src/domain/chat.js';

describe("a company's muted words as typed", () => {
  it('accepts words and phrases as they are, punctuation and emoji included', () => {
    expect(mutedWordsIssues(['estafa', 'muy malo', '¡fraude!', '😡', 'x'.repeat(MUTED_WORD_MAX_LENGTH)])).toEqual([]);
  });

  it('names each refused word by its place, and a repeat by the word it repeats', () => {
    expect(mutedWordsIssues(['', ' malo', 'ok\u0000', '\uDC00', 'y'.repeat(MUTED_WORD_MAX_LENGTH + 1), 'Pésimo', 'PESIMO', '\u0301'])).toEqual([
      { index: 0, problem: 'empty' },
      { index: 1, problem: 'surroundingSpaces' },
      { index: 2, problem: 'invalidCharacters' },
      { index: 3, problem: 'invalidCharacters' },
      { index: 4, problem: 'tooLong' },
      { index: 6, problem: 'duplicate', duplicateOf: 5 },
      { index: 7, problem: 'empty' },
    ]);
  });

  it('saves what the chat then matches, ignoring case and accents', () => {
    expect(mutedWordsIssues(['Pésimo'])).toEqual([]);
    expect(containsMutedWord('Qué PESIMO servicio', ['Pésimo'])).toBe(true);
  });
});

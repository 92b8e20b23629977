/** A word the server refused: its place in the list sent, the word, and the server's Spanish reason. */
export interface WordRefusal {
  index: number;
  word: string;
  message: string;
}

/**
 * What the user typed, as tags: split at commas (a pasted "estafa, fraude" is two words), each
 * without the spaces around it, empty pieces left out. Everything else is the server's to judge.
 */
export function wordsFromTyping(text: string): string[] {
  return text
    .split(',')
    .map((w) => w.trim())
    .filter((w) => w !== '');
}

/**
 * The server's field errors of a refused save, by word (`words.<index>`), and its refusal of the
 * list as a whole (`words`: too many), in the list's order.
 */
export function refusedWords(sent: readonly string[], fields: Record<string, string>): { words: WordRefusal[]; list: string | null } {
  const words: WordRefusal[] = [];
  for (const [key, message] of Object.entries(fields)) {
    const match = /^words\.(\d+)$/.exec(key);
    const index = match ? Number(match[1]) : Number.NaN;
    const word = sent[index];
    if (word !== undefined) words.push({ index, word, message });
  }
  words.sort((a, b) => a.index - b.index);
  return { words, list: fields.words ?? null };
}

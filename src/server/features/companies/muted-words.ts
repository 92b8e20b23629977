import { eq } from 'drizzle-orm';
import { MUTED_WORD_MAX_LENGTH, type MutedWordIssue, mutedWordsIssues } from '../../../domain/chat.js';
import { recordAudit } from '../../audit.js';
import type { Db, Tx } from '../../db/connect.js';
import { companyMutedWords } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import type { Acting } from '../../http/request-context.js';
import { messages } from '../../messages.js';
import { assertModerates } from './moderation-policies.js';
import type { CompanyActor } from './policies.js';

/** The company's muted words as saved (an untouched company has none). */
export async function readMutedWords(db: Db | Tx, companyId: string): Promise<string[]> {
  const [row] = await db.select({ words: companyMutedWords.words }).from(companyMutedWords).where(eq(companyMutedWords.companyId, companyId));
  return row?.words ?? [];
}

/** GET /api/companies/{id}/muted-words. */
export async function getMutedWords(db: Db, opts: { actor: CompanyActor; companyId: string }): Promise<{ words: string[] }> {
  await assertModerates(db, opts.actor, opts.companyId);
  return { words: await readMutedWords(db, opts.companyId) };
}

/**
 * PUT /api/companies/{id}/muted-words: replaces the list, whole or not at all. Each refused word
 * gets its own field error (`words.<index>`) naming it; nothing is trimmed, dropped or merged.
 */
export async function saveMutedWords(db: Db, opts: Acting<CompanyActor> & { companyId: string; words: string[] }): Promise<{ words: string[] }> {
  return db.transaction(async (tx) => {
    // Who may comes first: someone out of scope learns nothing from the validation.
    await assertModerates(tx, opts.actor, opts.companyId);
    const issues = mutedWordsIssues(opts.words);
    if (issues.length > 0) {
      const fields = Object.fromEntries(issues.map((issue) => [`words.${issue.index}`, issueMessage(opts.words, issue)]));
      throw new AppError('VALIDATION', messages.errors.validation, fields);
    }
    // Locked: two saves at once are written one after the other, each audited against the list it replaced.
    const [locked] = await tx
      .select({ words: companyMutedWords.words })
      .from(companyMutedWords)
      .where(eq(companyMutedWords.companyId, opts.companyId))
      .for('update');
    const before = locked?.words ?? [];
    const words = [...opts.words];
    if (sameList(before, words)) return { words: before };
    await tx
      .insert(companyMutedWords)
      .values({ companyId: opts.companyId, words })
      .onConflictDoUpdate({ target: companyMutedWords.companyId, set: { words, updatedAt: new Date() } });
    await recordAudit(tx, {
      by: opts,
      action: 'company.muted_words',
      entityType: 'company',
      entityId: opts.companyId,
      before: { words: before },
      after: { words },
    });
    return { words };
  });
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((w, i) => w === b[i]);
}

const fill = (template: string, values: Record<string, string>) => template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => values[key] ?? '');

/** The Spanish refusal of one word, naming its place (1-based) and, where it can be shown, the word. */
function issueMessage(words: readonly string[], issue: MutedWordIssue): string {
  const word = words[issue.index] ?? '';
  const position = String(issue.index + 1);
  const text = messages.moderation.mutedWords;
  switch (issue.problem) {
    case 'empty':
      return fill(text.empty, { position });
    case 'invalidCharacters':
      // The word itself is not echoed: it holds characters that cannot be shown.
      return fill(text.invalidCharacters, { position });
    case 'surroundingSpaces':
      return fill(text.surroundingSpaces, { position, word });
    case 'tooLong':
      return fill(text.tooLong, { position, word: [...word].slice(0, MUTED_WORD_MAX_LENGTH).join('') });
    case 'duplicate':
      return fill(text.duplicate, { position, word, other: words[issue.duplicateOf ?? 0] ?? '' });
  }
}

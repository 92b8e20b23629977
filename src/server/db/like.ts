import { type SQL, sql } from 'drizzle-orm';
import { foldText } from '../../domain/text.js';

/** Escapes LIKE's wildcards (`%`, `_`) and its escape character, so user text matches literally. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

// Accents folded in SQL the way foldText folds them in JavaScript (no unaccent extension needed).
const ACCENTED = 'ÁÀÂÄÃÅáàâäãåÉÈÊËéèêëÍÌÎÏíìîïÓÒÔÖÕóòôöõÚÙÛÜúùûüÑñÇçÝýÿ';
const UNACCENTED = [...ACCENTED].map(foldText).join('');

/** `value` lower-cased and without accents, to compare with a needle folded by foldText. */
export function foldedSql(value: SQL): SQL {
  return sql`lower(translate(${value}, ${ACCENTED}, ${UNACCENTED}))`;
}

import { ZCategoryInput } from '../../../domain/categories.js';

/** ZCategoryInput's issue messages; each is a key under `categories.errors` in the catalogue. */
export type CategoryNameError = 'categoryNameRequired' | 'tooLong' | 'textInvalid';

export type CategoryNameCheck = { ok: true; name: string } | { ok: false; error: CategoryNameError };

/** The server's own schema, run before sending: trimmed and non-empty (SPEC §5). */
export function checkCategoryName(value: string): CategoryNameCheck {
  const result = ZCategoryInput.safeParse({ name: value });
  if (result.success) return { ok: true, name: result.data.name };
  const code = result.error.issues[0]?.message;
  return { ok: false, error: code === 'tooLong' || code === 'textInvalid' ? code : 'categoryNameRequired' };
}

/** The longest name ZCategoryInput accepts, for the inputs' maxLength. */
export const CATEGORY_NAME_MAX = 60;

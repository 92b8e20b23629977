/** What a form needs of a Zod issue (structural, so the shell does not import Zod for the type). */
export interface FieldIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/**
 * A form's field errors from a failed parse of the server's own schema: the first issue of each
 * field wins, so every field shows one message at once. `fieldOf` names the form field an issue's
 * path belongs to (null: not a field this form shows); `messageOf` turns the issue's message (a
 * catalogue key in our schemas) into what the form keeps.
 */
export function fieldErrors<F extends string, M>(
  issues: readonly FieldIssue[],
  fieldOf: (path: readonly PropertyKey[]) => F | null,
  messageOf: (message: string, field: F) => M,
): Partial<Record<F, M>> {
  const errors: Partial<Record<F, M>> = {};
  for (const issue of issues) {
    const field = fieldOf(issue.path);
    if (field === null || errors[field] !== undefined) continue;
    errors[field] = messageOf(issue.message, field);
  }
  return errors;
}

/** The field an issue belongs to by its top-level name, when `isField` knows it. */
export function topLevelField<F extends string>(isField: (name: string) => name is F): (path: readonly PropertyKey[]) => F | null {
  return (path) => {
    const name = String(path[0] ?? '');
    return isField(name) ? name : null;
  };
}

/**
 * A refused save's field messages (the server's `fields`, already in Spanish) split into those the
 * form shows under its own inputs and the rest, which have no input to sit under.
 */
export function serverFieldErrors<F extends string>(
  fields: Readonly<Record<string, string>>,
  isField: (name: string) => name is F,
): { fields: Partial<Record<F, string>>; others: string[] } {
  const mine: Partial<Record<F, string>> = {};
  const others: string[] = [];
  for (const [name, message] of Object.entries(fields)) {
    if (isField(name)) mine[name] = message;
    else others.push(message);
  }
  return { fields: mine, others };
}

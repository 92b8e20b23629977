/** Escapes LIKE's wildcards (`%`, `_`) and its escape character, so user text matches literally. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

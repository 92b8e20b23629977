/** Lower-case and strip accents, so 'Bicicléta' and 'bicicleta' compare equal. */
export function foldText(value: string): string {
  return value.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** SPEC §5: up to 10 lower-cased words of a name, used by the auction picker. */
export function nameTokens(name: string, limit = 10): string[] {
  const words = foldText(name)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  return [...new Set(words)].slice(0, limit);
}

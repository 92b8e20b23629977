/** The SQLSTATE and constraint of a database error (drizzle wraps the driver's error in `cause`), or null. */
export function pgError(err: unknown): { code: string; constraint: string | undefined } | null {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown };
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return { code, constraint: typeof constraint === 'string' ? constraint : undefined };
  }
  return null;
}

export function pgErrorCode(err: unknown): string | null {
  return pgError(err)?.code ?? null;
}

export const UNIQUE_VIOLATION = '23505';
export const FOREIGN_KEY_VIOLATION = '23503';

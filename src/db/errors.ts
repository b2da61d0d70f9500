/** PostgreSQL error details, wherever the driver or Drizzle wrapped them. */
export function pgError(err: unknown): { code?: string; constraint?: string; detail?: string } | undefined {
  let current: unknown = err;
  for (let depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return current as { code: string };
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The constraint a unique violation (23505) broke, if that is what this error is. */
export function uniqueViolation(err: unknown): string | undefined {
  const pg = pgError(err);
  if (pg?.code !== '23505') return undefined;
  return pg.constraint ?? pg.detail ?? 'unknown';
}

/** The constraint a foreign-key violation (23503) broke, if that is what this error is. */
export function foreignKeyViolation(err: unknown): string | undefined {
  const pg = pgError(err);
  if (pg?.code !== '23503') return undefined;
  return pg.constraint ?? pg.detail ?? 'unknown';
}

/**
 * Runs `work` (a whole transaction) again when PostgreSQL aborts it for a deadlock (40P01, rolled back: nothing of it
 * stayed), up to `attempts` times in all; any other failure, or the last deadlock, is thrown.
 */
export async function retryingDeadlocks<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await work();
    } catch (err) {
      if (pgError(err)?.code !== '40P01' || n >= attempts) throw err;
    }
  }
}

// PostgreSQL error codes (SQLSTATE) as drizzle, pg and PGlite report them: drizzle wraps the driver's
// error in `cause`, so the chain is walked.

/** The SQLSTATE of a database error anywhere in the `cause` chain, if there is one. */
export function sqlStateOf(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 10; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

export const isDeadlock = (error: unknown) => sqlStateOf(error) === '40P01';
/** A unique index refused the row (23505). */
export const isUniqueViolation = (error: unknown) => sqlStateOf(error) === '23505';

/**
 * The database refused the data itself, not the moment: a data exception (22: a character or value it
 * cannot hold), an integrity constraint (23) or a size limit (54). Storing the same rows again fails
 * again, so the rows are worth isolating; a lost connection, a deadlock or a shutdown is not.
 */
export function isDataRefusal(error: unknown): boolean {
  const state = sqlStateOf(error);
  return state !== undefined && ['22', '23', '54'].includes(state.slice(0, 2));
}

/**
 * The database's own one-line message for a failure, with its code (not drizzle's wrapper, which quotes
 * the statement and its parameters, nor the detail, which may quote the row).
 */
export function refusalMessage(error: unknown): string {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 10; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && typeof message === 'string') return `${message} (${code})`;
    e = (e as { cause?: unknown }).cause;
  }
  return error instanceof Error ? error.message : String(error);
}

/** A failure with a message that says it all (no stack trace needed): PostgreSQL down, build broken... */
export class BenchError extends Error {
  override name = 'BenchError';
}

/**
 * An error whose message is written for the user: what was wrong and what to do. Reported as one
 * line without a stack trace; anything else is reported as unexpected.
 */
export class ExplainedError extends Error {
  override name = 'ExplainedError'
}

/** A mistake in the workflow's inputs or the runner's settings. */
export class InputError extends ExplainedError {
  override name = 'InputError'
}

/** The run was cancelled (the runner's SIGINT/SIGTERM) while waiting or sending. */
export class CancelledError extends ExplainedError {
  override name = 'CancelledError'
}

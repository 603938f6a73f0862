import { redact, secretForms } from './redact.js'

/**
 * An error whose message is written for the user: what was wrong and what to do. Reported as one
 * line without a stack trace; anything else is reported as unexpected.
 */
export class ExplainedError extends Error {
  constructor(message?: string, options?: ErrorOptions) {
    super(message, options)
    // Each kind is named by its class (InputError, AuthError, …), so no subclass repeats its name
    // (the bundle is not minified: class names stay as written).
    this.name = new.target.name
  }
}

/** A mistake in the workflow's inputs or the runner's settings. */
export class InputError extends ExplainedError {}

/** The run was cancelled (the runner's SIGINT/SIGTERM) while waiting or sending. */
export class CancelledError extends ExplainedError {}

/** A caught value's message, for a warning that quotes it. */
export const errorText = (error: unknown): string =>
  error instanceof Error ? error.message : String(error)

/**
 * The one line a failed step ends with: our own messages as they are, anything else marked
 * unexpected (its stack goes to `debug`), and no form of any secret in either.
 */
export function describeError(
  error: unknown,
  secrets: readonly (string | undefined)[],
  debug: (message: string) => void = () => {}
): string {
  let message: string
  if (error instanceof ExplainedError) message = error.message
  else {
    message = `Unexpected error: ${errorText(error)}`
    if (error instanceof Error && error.stack) debug(error.stack)
  }
  return redact(message, secretForms(secrets.filter((s): s is string => Boolean(s))))
}

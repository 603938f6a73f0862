import { ExplainedError } from '../runner/errors.js'

/** Base of every error the service client raises; messages say what to do and never hold the key. */
export class ApiError extends ExplainedError {
  constructor(
    message: string,
    /** HTTP status, when the service answered. */
    readonly status?: number,
    /** True when trying again later may help (5xx, network trouble, rate limits). */
    readonly transient = false
  ) {
    super(message)
  }
}

/** 401/403: the key is wrong, revoked or not an admin key. */
export class AuthError extends ApiError {}

/** No connection to the service could be made: nothing was sent. */
export class UnreachableError extends ApiError {}

/** 404: the project or job does not exist (or the key cannot see it). */
export class NotFoundError extends ApiError {}

/**
 * A read whose answer was larger than the client holds in memory: asking again gets the same answer,
 * so it is not retried; a caller may ask for a smaller page.
 */
export class AnswerTooLargeError extends ApiError {}

/** The service asked us to wait longer than the deadline allows. */
export class RateLimitError extends ApiError {
  constructor(message: string) {
    super(message, 429, true)
  }
}

/**
 * A create or follow-up request may have reached the service, but no answer came back.
 * Sending it again could start a second job, so the caller must not retry.
 */
export class AmbiguousWriteError extends ApiError {}

/** The 404 message for a route under a project: the ID is the input to check. */
export const projectNotFound = (projectId: string): string =>
  `Project '${projectId}' was not found. Check 'project-id': copy it from the API keys page of the dashboard`

/** The caller's request cap was reached before the service gave a usable answer. */
export class RequestCapReachedError extends ApiError {
  constructor(message: string) {
    super(message, undefined, true)
  }
}

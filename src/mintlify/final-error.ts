import { ApiError, BudgetExhaustedError, RateLimitError, UnreachableError } from './errors.js'

/**
 * The error the caller sees once retrying is over: what was tried, what was wrong, and what to
 * do. Transient errors stay transient (a status check fails the wait only at its deadline).
 */
export function finalError(
  spec: { what: string; write: boolean },
  error: unknown,
  baseUrl: URL
): unknown {
  if (
    !(error instanceof ApiError) ||
    !error.transient ||
    error instanceof RateLimitError ||
    error instanceof BudgetExhaustedError
  )
    return error
  const host = baseUrl.host
  if (error instanceof UnreachableError) {
    const sent = spec.write ? ' The request never reached the service, so nothing was done.' : ''
    return new UnreachableError(
      `Could not ${spec.what}: ${error.message}.${sent} Check 'api-url' (${baseUrl.href}) and, on a self-hosted runner, the proxy settings (HTTPS_PROXY, NO_PROXY).`,
      undefined,
      true
    )
  }
  if (error.status === 429) {
    return new ApiError(
      `Could not ${spec.what}: the service kept rate limiting the requests (${error.message}). ${spec.write ? 'A project may start 100 agent jobs and follow-ups an hour' : 'An organisation may make 100 analytics requests an hour'}: try again later, or spread the workflows out.`,
      429,
      true
    )
  }
  const failing = error.status !== undefined ? ' kept failing' : ''
  return new ApiError(
    `Could not ${spec.what}: ${host}${failing} (${error.message}). Try again later.`,
    error.status,
    true
  )
}

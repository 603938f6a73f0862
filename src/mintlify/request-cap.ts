import { RequestCapReachedError } from './errors.js'
import type { Attempt } from './retry.js'

/**
 * The most HTTP requests an analytics read may send, retries included (`max-requests`, or the
 * impact sub-action's bound per pull request). The client takes one before each attempt, so a
 * caller's cap holds however many times the service asks it to try again. Not the docs project's
 * budget of jobs and credits (`max-jobs`, `max-credits`): that one lives on the dashboard.
 */
export class RequestCap {
  private sent = 0

  constructor(readonly max: number) {}

  /** Requests sent so far (each retry counts). */
  get used(): number {
    return this.sent
  }

  get left(): number {
    return this.max - this.sent
  }

  /** Takes one request; false when the cap is reached. */
  take(): boolean {
    if (this.sent >= this.max) return false
    this.sent++
    return true
  }
}

/** Runs one attempt counted against `cap`; a retry the cap has no room for is not waited for. */
export async function withinCap<T>(
  cap: RequestCap | undefined,
  what: string,
  attempt: () => Promise<Attempt<T>>
): Promise<Attempt<T>> {
  if (cap && !cap.take()) {
    const error = new RequestCapReachedError(`no request was left to ${what}`)
    return { ok: false, error, retry: false }
  }
  const outcome = await attempt()
  if (!outcome.ok && outcome.retry && cap && cap.left <= 0) {
    const error = new RequestCapReachedError(
      `no request was left to try again to ${what} (${outcome.error.message})`
    )
    return { ok: false, error, retry: false }
  }
  return outcome
}

import { BudgetExhaustedError } from './errors.js'
import type { Attempt } from './retry.js'

/**
 * A number of HTTP requests that may be sent, retries included. The client takes one before each
 * attempt, so a caller's limit holds however many times the service asks it to try again.
 */
export class RequestBudget {
  private spent = 0

  constructor(readonly max: number) {}

  /** Requests sent so far (each retry counts). */
  get used(): number {
    return this.spent
  }

  get left(): number {
    return this.max - this.spent
  }

  /** Takes one request; false when none is left. */
  take(): boolean {
    if (this.spent >= this.max) return false
    this.spent++
    return true
  }
}

/** Runs one attempt paid for from `budget`; a retry the budget could not pay for is not waited for. */
export async function withinBudget<T>(
  budget: RequestBudget | undefined,
  what: string,
  attempt: () => Promise<Attempt<T>>
): Promise<Attempt<T>> {
  if (budget && !budget.take()) {
    const error = new BudgetExhaustedError(`no request was left in the budget to ${what}`)
    return { ok: false, error, retry: false }
  }
  const outcome = await attempt()
  if (!outcome.ok && outcome.retry && budget && budget.left <= 0) {
    const error = new BudgetExhaustedError(
      `no request was left in the budget to try again to ${what} (${outcome.error.message})`
    )
    return { ok: false, error, retry: false }
  }
  return outcome
}

import { DAY_MS } from '../runner/duration.js'

/**
 * The rolling windows a budget counts in. A month is 30 days, not a calendar month: a rolling
 * window has no first of the month to reset on.
 */
export const BUDGET_WINDOWS = { day: DAY_MS, week: 7 * DAY_MS, month: 30 * DAY_MS } as const

/** `max-jobs`: how many jobs and follow-ups the agent may start in a rolling window. */
export interface JobBudget {
  max: number
  windowMs: number
  /** As written in the policy file: `5/day`. */
  text: string
}

/** `max-credits`: estimated credits (starts × `credits-per-run`) in a rolling 30 days. */
export interface CreditBudget {
  max: number
  windowMs: number
}

/**
 * What the project's policy file allows it to spend and keep open: the budget in jobs and
 * follow-ups per window (`max-jobs`), in estimated credits per 30 days (`max-credits`, at
 * `credits-per-run` a start: Mintlify publishes averages, the API reports no usage), and the docs
 * pull requests open at once (`max-open`). Every run that writes the dashboard knows them, so the
 * dashboard always shows them.
 */
export interface Limits {
  maxJobs?: JobBudget
  maxCredits?: CreditBudget
  /** The estimate of one job or follow-up, in credits. */
  creditsPerRun: number
  maxOpen?: number
}

/**
 * `max-jobs` as the policy file writes it: 1 to 2000 jobs per day, week or month. 2000 is MAX_STARTS
 * (records/ledger/starts.ts), the starts the ledger keeps: a higher count would never hold. The bound
 * is in the pattern, so that the editors' JSON Schema (generated from it) refuses what the action
 * does; test/unit/policy.test.ts checks the two agree.
 */
export const MAX_JOBS_PATTERN = /^([1-9]\d{0,2}|1\d{3}|2000)\/(day|week|month)$/

/** The budget `5/day` sets, or undefined when the text is not one (`MAX_JOBS_PATTERN`). */
export function jobBudget(text: string): JobBudget | undefined {
  const m = MAX_JOBS_PATTERN.exec(text)
  if (!m) return undefined
  const window = m[2] as keyof typeof BUDGET_WINDOWS
  return { max: Number(m[1]), windowMs: BUDGET_WINDOWS[window], text }
}

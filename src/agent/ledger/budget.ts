import { LONGEST_WINDOW_MS } from '../../records/ledger.js'
import { InputError } from '../../runner/errors.js'

/** `max-jobs`: how many jobs and follow-ups the agent may start in a rolling window. */
export interface JobBudget {
  max: number
  windowMs: number
  /** As the user wrote it, normalised: `5/day`. */
  text: string
}

const WINDOWS: Record<string, number> = { day: 86_400_000, week: LONGEST_WINDOW_MS }

/**
 * Mintlify publishes average credit costs per agent run, not per API job; this is its published
 * average for a run that updates docs from code changes (docs.mintlify.com, credits page, August
 * 2026). Shown only as an estimate, labelled so: the API reports no usage.
 */
export const ESTIMATED_CREDITS_PER_RUN = 180

export function parseMaxJobs(name: string, raw: string): JobBudget | undefined {
  const text = raw.trim().toLowerCase().replace(/\s+/g, '')
  if (text === '') return undefined
  const m = /^(\d{1,4})\/(day|week)$/.exec(text)
  const max = Number(m?.[1])
  if (!m || max < 1) {
    throw new InputError(
      `Input '${name}' must be a number of jobs per day or per week, such as 5/day or 20/week; got '${raw}'.`
    )
  }
  return { max, windowMs: WINDOWS[m[2] as string] as number, text: `${max}/${m[2]}` }
}

export interface BudgetState {
  /** Jobs and follow-ups started in the window. */
  used: number
  left: number
  /** When the next one frees up (epoch ms), when none is left. */
  freesAt?: number
}

/** Where the budget stands at `now`, from the times (epoch ms) of every job and follow-up started. */
export function budgetState(spend: readonly number[], budget: JobBudget, now: number): BudgetState {
  const inWindow = spend.filter(at => at > now - budget.windowMs && at <= now).sort((a, b) => a - b)
  const left = Math.max(0, budget.max - inWindow.length)
  if (left > 0) return { used: inWindow.length, left }
  // The window frees one place when its oldest start leaves it.
  const oldest = inWindow[inWindow.length - budget.max] as number
  return { used: inWindow.length, left, freesAt: oldest + budget.windowMs }
}

/** Starts in the last `windowMs`, for the estimate beside the budget. */
export const startsWithin = (spend: readonly number[], windowMs: number, now: number): number =>
  spend.filter(at => at > now - windowMs && at <= now).length

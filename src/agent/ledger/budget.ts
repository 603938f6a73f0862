import type { JobBudget } from '../../policy/budget.js'

/**
 * Mintlify publishes average credit costs per agent run, not per API job; this is its published
 * average for a run that updates docs from code changes (docs.mintlify.com, credits page, August
 * 2026). Shown only as an estimate, labelled so: the API reports no usage.
 */
export const ESTIMATED_CREDITS_PER_RUN = 180

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

/** Why the budget holds a run back, and when it frees. */
export function overBudget(state: BudgetState, budget: JobBudget, now: number): string {
  const until = new Date(state.freesAt ?? now).toISOString().slice(0, 16).replace('T', ' ')
  return `Over budget: ${state.used} jobs and follow-ups in the window of 'max-jobs: ${budget.text}'; the next one frees at ${until} UTC.`
}

/** Starts in the last `windowMs`, for the estimate beside the budget. */
export const startsWithin = (spend: readonly number[], windowMs: number, now: number): number =>
  spend.filter(at => at > now - windowMs && at <= now).length

import type { Limits } from '../../policy/budget.js'

export type { Limits }
import { DAY_MS } from '../../runner/duration.js'
import { formatCount } from '../../runner/text.js'

/** Where one budget stands: the starts in its window against the starts it allows. */
export interface BudgetState {
  /** The policy file's key that sets it. */
  key: 'max-jobs' | 'max-credits'
  /** As the policy file writes it: `max-jobs: 20/month`, `max-credits: 9000`. */
  text: string
  windowMs: number
  /** Jobs and follow-ups started in the window. */
  used: number
  /** Starts the window allows (for credits: as many as the estimate fits in). */
  allowed: number
  left: number
  /** When the next one frees up (epoch ms), when none is left. */
  freesAt?: number
}

/** Each budget the limits set, where it stands at `now`, from the start of every job and follow-up. */
export function budgetStates(
  spend: readonly number[],
  limits: Limits | undefined,
  now: number
): BudgetState[] {
  const states: BudgetState[] = []
  if (limits?.maxJobs) {
    const { max, windowMs, text } = limits.maxJobs
    states.push(stateOf(spend, now, { key: 'max-jobs', text: `max-jobs: ${text}`, windowMs }, max))
  }
  if (limits?.maxCredits) {
    const { max, windowMs } = limits.maxCredits
    const allowed = Math.floor(max / limits.creditsPerRun)
    states.push(
      stateOf(spend, now, { key: 'max-credits', text: `max-credits: ${max}`, windowMs }, allowed)
    )
  }
  return states
}

function stateOf(
  spend: readonly number[],
  now: number,
  limit: Pick<BudgetState, 'key' | 'text' | 'windowMs'>,
  allowed: number
): BudgetState {
  const inWindow = spend.filter(at => at > now - limit.windowMs && at <= now).sort((a, b) => a - b)
  const left = Math.max(0, allowed - inWindow.length)
  const state = { ...limit, used: inWindow.length, allowed, left }
  if (left > 0 || allowed === 0) return state
  // The window frees one place when its oldest start that counts leaves it.
  const oldest = inWindow[inWindow.length - allowed] as number
  return { ...state, freesAt: oldest + limit.windowMs }
}

/** The budget that binds first: the one with the fewest starts left (none when no budget is set). */
export function tightest(states: readonly BudgetState[]): BudgetState | undefined {
  return [...states].sort((a, b) => a.left - b.left || (b.freesAt ?? 0) - (a.freesAt ?? 0))[0]
}

/** Why the budget holds a run back, and when it frees. */
export function overBudget(state: BudgetState, limits: Limits, now: number): string {
  const until = new Date(state.freesAt ?? now).toISOString().slice(0, 16).replace('T', ' ')
  const credits =
    state.key === 'max-credits'
      ? `, about ${formatCount(state.used * limits.creditsPerRun)} credits at ${formatCount(limits.creditsPerRun)} a run (an estimate),`
      : ''
  return `Over budget: ${state.used} jobs and follow-ups${credits} in the window of '${state.text}'; the next one frees at ${until} UTC.`
}

/** One budget as people read it: "3 of 20 in 30 days used (max-jobs: 20/month), about 540 credits". */
export function budgetText(state: BudgetState, limits: Limits): string {
  const days = Math.round(state.windowMs / DAY_MS)
  const window = days === 1 ? '24 hours' : `${days} days`
  const credits = (n: number): string => `about ${formatCount(n * limits.creditsPerRun)} credits`
  return state.key === 'max-credits'
    ? `${credits(state.used)} of ${formatCount(limits.maxCredits?.max ?? 0)} used in the last ${window} (${state.text}), room for ${state.left} more ${state.left === 1 ? 'start' : 'starts'}`
    : `${state.used} of ${state.allowed} jobs and follow-ups used in the last ${window} (${state.text}), ${credits(state.used)}`
}

/** Where the project's budgets stand, in one line for the summary and the approval box. */
export function budgetSummary(
  spend: readonly number[],
  limits: Limits | undefined,
  now: number
): string | undefined {
  if (!limits) return undefined
  const states = budgetStates(spend, limits, now)
  return states.length ? states.map(s => budgetText(s, limits)).join('; ') : undefined
}

/** Starts in the last `windowMs`, for the estimate beside the budget. */
export const startsWithin = (spend: readonly number[], windowMs: number, now: number): number =>
  spend.filter(at => at > now - windowMs && at <= now).length

/**
 * When the jobs and follow-ups of a project started: every start of the last week (`spend`), for
 * `max-jobs`, and a count per UTC day (`startsByDay`) for the dashboard's 30-day outcomes.
 */

const DAY = 86_400_000

/** Spending older than this is never needed again: `max-jobs` counts a week at most. */
export const LONGEST_WINDOW_MS = 7 * DAY

/** The newest starts kept, however many there were. */
export const MAX_STARTS = 2000

/** The dashboard's outcomes cover docs pull requests created in the last 30 days. */
export const OUTCOME_WINDOW_MS = 30 * DAY

/** Day counts kept: the outcomes' 30 days and the day in progress. */
export const MAX_DAYS = 31

/** The UTC day of a time, as `startsByDay` keys it. */
export const utcDay = (at: number): string => new Date(at).toISOString().slice(0, 10)

/** A job or follow-up started at `at`: for `max-jobs` and for the 30-day outcomes. */
export function noteStart(
  project: { spend: number[]; startsByDay?: Record<string, number> },
  at: number
): void {
  project.spend.push(at)
  const days = (project.startsByDay ??= {})
  const day = utcDay(at)
  days[day] = (days[day] ?? 0) + 1
}

/** Jobs and follow-ups started in the last 30 days (whole UTC days, today included). */
export function startsIn30Days(
  project: { startsByDay?: Record<string, number> },
  now: number
): number {
  const from = utcDay(now - OUTCOME_WINDOW_MS + DAY)
  return Object.entries(project.startsByDay ?? {})
    .filter(([day]) => day >= from && day <= utcDay(now))
    .reduce((sum, [, n]) => sum + n, 0)
}

import { DAY_MS } from '../../runner/duration.js'

/**
 * When the jobs and follow-ups of a project started: every start of the last 31 days (`spend`),
 * for `max-jobs` and the budgets over a month, and a count per UTC day (`startsByDay`) for the
 * dashboard's 30-day outcomes. This file holds the compact form the starts are written in.
 */

/** Starts older than this are never needed again: the longest budget window is a month. */
export const STARTS_KEPT_MS = 31 * DAY_MS

/**
 * The newest starts kept, however many there were: a budget of more than this many jobs in its
 * window would never be reached, so none may be allowed.
 */
export const MAX_STARTS = 2000

/** The dashboard's outcomes cover docs pull requests created in the last 30 days. */
export const OUTCOME_WINDOW_MS = 30 * DAY_MS

/** Day counts kept: the outcomes' 30 days and the day in progress. */
export const MAX_DAYS = 31

/**
 * The starts as written in the state: the first in epoch milliseconds, then each one's distance
 * from the one before, all in base 36 and separated by commas (`"mij5kx3l,2w7k,0,8c1"`). A start
 * is about 5 characters instead of 14: 2,000 starts over a month fit in about 10,000 characters.
 * Sorted oldest first; a start that is not a whole, non-negative number of milliseconds is left out.
 */
export function encodeStarts(starts: readonly number[]): string {
  const sorted = starts.filter(at => Number.isSafeInteger(at) && at >= 0).sort((a, b) => a - b)
  return sorted
    .map((at, i) => (i === 0 ? at : at - (sorted[i - 1] as number)).toString(36))
    .join(',')
}

/** A base-36 number of the compact form: at most 11 digits (36^11 ms is far beyond any date). */
const STEP = /^[0-9a-z]{1,11}$/

/**
 * The starts a compact form holds, oldest first, the newest MAX_STARTS; undefined when it is out
 * of shape (a step that is not a base-36 number, or a time beyond any safe number).
 */
export function decodeStarts(text: string): number[] | undefined {
  if (text === '') return []
  const starts: number[] = []
  let at = 0
  for (const step of text.split(',')) {
    if (!STEP.test(step)) return undefined
    at += parseInt(step, 36)
    if (!Number.isSafeInteger(at)) return undefined
    starts.push(at)
  }
  return starts.slice(-MAX_STARTS)
}

/** A key of `startsByDay`: a UTC day. */
export const DAY_KEY = /^\d{4}-\d{2}-\d{2}$/

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
  const from = utcDay(now - OUTCOME_WINDOW_MS + DAY_MS)
  return Object.entries(project.startsByDay ?? {})
    .filter(([day]) => day >= from && day <= utcDay(now))
    .reduce((sum, [, n]) => sum + n, 0)
}

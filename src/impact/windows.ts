import type { LedgerJob, ProjectLedger } from '../records/ledger.js'
import { DAY_MS } from '../runner/duration.js'

/** Whole UTC days, `from` included, `to` not: what the analytics' `dateFrom` and `dateTo` take. */
export interface DayRange {
  from: string
  to: string
}

export interface ImpactWindows {
  before: DayRange
  after: DayRange
  /** When both are over and the analytics have had a day to catch up (epoch ms). */
  dueAt: number
}

const dayText = (at: number): string => new Date(at).toISOString().slice(0, 10)

/**
 * Two equal windows meeting at the merge: the analytics count whole UTC days, so the merge's own
 * day, partly before and partly after, is in neither; `days` whole days before it, and as many
 * after it. Measured a day after the second ends (the analytics' lag).
 */
export function impactWindows(mergedAt: number, days: number): ImpactWindows {
  const mergeDay = Math.floor(mergedAt / DAY_MS) * DAY_MS
  const afterEnd = mergeDay + DAY_MS + days * DAY_MS
  return {
    before: { from: dayText(mergeDay - days * DAY_MS), to: dayText(mergeDay) },
    after: { from: dayText(mergeDay + DAY_MS), to: dayText(afterEnd) },
    dueAt: afterEnd + DAY_MS
  }
}

/** The last day a range covers, for people: `to` is not in it. */
export const lastDay = (range: DayRange): string => dayText(Date.parse(range.to) - DAY_MS)

export type MergedJob = LedgerJob & { prLink: string; endedAt: number }

/** The ledger's merged docs pull requests not measured yet whose windows are over, oldest merge first. */
export function dueForImpact(project: ProjectLedger, now: number, days: number): MergedJob[] {
  return project.jobs
    .filter(
      (j): j is MergedJob =>
        j.state === 'merged' &&
        Boolean(j.prLink) &&
        typeof j.endedAt === 'number' &&
        !j.impact &&
        impactWindows(j.endedAt, days).dueAt <= now
    )
    .sort((a, b) => a.endedAt - b.endedAt)
}

/** Merged docs pull requests still waiting for their windows to end, for the log. */
export const waitingForImpact = (project: ProjectLedger, now: number, days: number): number =>
  project.jobs.filter(
    j =>
      j.state === 'merged' &&
      j.prLink &&
      j.endedAt &&
      !j.impact &&
      impactWindows(j.endedAt, days).dueAt > now
  ).length

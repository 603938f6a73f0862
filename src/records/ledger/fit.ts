import { commentSafeJson } from '../record.js'
import {
  LIVE,
  type Ledger,
  type LedgerJob,
  MAX_REPOSITORIES,
  type ProjectLedger,
  type Uncertain,
  storedLedger
} from './format.js'
import { MAX_DAYS, MAX_STARTS, OUTCOME_WINDOW_MS, STARTS_KEPT_MS, utcDay } from './starts.js'
import { DAY_MS } from '../../runner/duration.js'

/**
 * The ledger within its share of the dashboard's body, however long its history: what is written
 * is bounded first by counts, then by size, the least needed giving way first.
 */

/** The state's share of the issue body (GitHub allows 65,536 characters in all). */
const MAX_STATE_CHARS = 24_000
const MAX_JOBS = 10
/**
 * Jobs kept beyond the last MAX_JOBS: those whose docs pull request is still open (`max-open` counts
 * them, `expire-after` closes them, however old), then those opened in the outcome window.
 */
const MAX_OUTCOME_JOBS = 50
const MAX_CHANGES_PER_JOB = 20
const MAX_WAITING = 50
const MAX_UNCERTAIN = 10
/** Changes an uncertain request keeps for its box: one run's bounds in one repository, twice. */
const MAX_UNCERTAIN_CHANGES = 50
const MAX_RUNS = 20

/** When a job's docs pull request was opened, as far as known: never before its job started. */
export const openedAt = (job: LedgerJob): number => job.prCreatedAt ?? job.startedAt

/**
 * A merged docs pull request whose reader impact is still to be measured (`impactDays` set): until
 * its windows and the day of lag are over, and a week more for a weekly schedule.
 */
function awaitsImpact(job: LedgerJob, impactDays: number | undefined, now: number): boolean {
  if (!impactDays || job.state !== 'merged' || job.impact || job.endedAt === undefined) return false
  return job.endedAt > now - (impactDays + 2 + 7) * DAY_MS
}

/**
 * The ledger within its share of the body, however long the history: the oldest runs and the
 * change lists of the oldest jobs are summarised by their counts first. The starts the budgets
 * count never give way: they are bounded by time and by MAX_STARTS alone.
 */
export function fitLedger(ledger: Ledger, now: number): Ledger {
  const fitted: Ledger = structuredClone(ledger)
  for (const project of Object.values(fitted.projects)) {
    project.spend = project.spend
      .filter(at => at > now - STARTS_KEPT_MS)
      .sort((a, b) => a - b)
      .slice(-MAX_STARTS)
    if (project.startsByDay) {
      const from = utcDay(now - MAX_DAYS * DAY_MS)
      project.startsByDay = Object.fromEntries(
        Object.entries(project.startsByDay).filter(([day]) => day > from)
      )
    }
    for (const job of project.jobs) trimChanges(job, MAX_CHANGES_PER_JOB)
    // Beyond the last MAX_JOBS, a job stays while its docs pull request may be open, however old
    // (the caps and the expiry act on it), and for the outcomes: a docs pull request opened in the
    // window, without its change list (counted); and, where reader impact is measured, one merged
    // but not measured yet, with its changes (their titles give the terms it is measured on).
    const waits = (j: LedgerJob): boolean => awaitsImpact(j, project.impactDays, now)
    const older = keptOlder(
      project.jobs.slice(0, Math.max(0, project.jobs.length - MAX_JOBS)),
      j => Boolean(j.prLink) && (openedAt(j) > now - OUTCOME_WINDOW_MS || waits(j))
    )
    for (const job of older) if (!waits(job)) trimChanges(job, 0)
    keepJobs(project, [...older, ...project.jobs.slice(-MAX_JOBS)])
    if (project.waiting) project.waiting.changes = project.waiting.changes.slice(-MAX_WAITING)
    for (const entry of project.uncertain) trimUncertain(entry, MAX_UNCERTAIN_CHANGES)
    const dropped = project.uncertain.length - MAX_UNCERTAIN
    if (dropped > 0) {
      project.olderUncertain = (project.olderUncertain ?? 0) + dropped
      project.uncertain = project.uncertain.slice(-MAX_UNCERTAIN)
    }
    dropOldRuns(project, MAX_RUNS)
  }
  // Measured as written: the starts in their compact form.
  const size = (): number => commentSafeJson(storedLedger(fitted)).length
  for (let keep = MAX_RUNS; size() > MAX_STATE_CHARS && keep > 0; keep = Math.floor(keep / 2))
    for (const project of Object.values(fitted.projects)) dropOldRuns(project, keep)
  // The changes kept for measuring an older docs pull request's impact give way first.
  if (size() > MAX_STATE_CHARS)
    for (const project of Object.values(fitted.projects))
      for (const job of project.jobs.slice(0, -MAX_JOBS)) trimChanges(job, 0)
  for (
    let keep = MAX_CHANGES_PER_JOB;
    size() > MAX_STATE_CHARS && keep > 0;
    keep = Math.floor(keep / 2)
  )
    for (const project of Object.values(fitted.projects))
      for (const job of project.jobs) trimChanges(job, keep)
  // Then the outcomes give way: only the last MAX_JOBS jobs and the open ones stay; last, those.
  if (size() > MAX_STATE_CHARS)
    for (const project of Object.values(fitted.projects))
      keepJobs(project, [
        ...keptOlder(project.jobs.slice(0, -MAX_JOBS), () => false),
        ...project.jobs.slice(-MAX_JOBS)
      ])
  if (size() > MAX_STATE_CHARS)
    for (const project of Object.values(fitted.projects))
      keepJobs(project, project.jobs.slice(-MAX_JOBS))
  // And the change lists of uncertain requests and of the waiting batch, counted.
  for (
    let keep = MAX_UNCERTAIN_CHANGES;
    size() > MAX_STATE_CHARS && keep > 0;
    keep = Math.floor(keep / 2)
  )
    for (const project of Object.values(fitted.projects)) {
      for (const entry of project.uncertain) trimUncertain(entry, keep)
      if (project.waiting) project.waiting.changes = project.waiting.changes.slice(-keep)
    }
  return fitted
}

/**
 * Of the jobs before the last MAX_JOBS, in their order: those whose docs pull request may be open
 * (a link, a live state), then those `alsoKept` keeps, at most MAX_OUTCOME_JOBS in all, the newest.
 */
function keptOlder(jobs: LedgerJob[], alsoKept: (job: LedgerJob) => boolean): LedgerJob[] {
  const open = (j: LedgerJob): boolean => Boolean(j.prLink) && LIVE.has(j.state)
  const openOnes = jobs.filter(open).slice(-MAX_OUTCOME_JOBS)
  const room = MAX_OUTCOME_JOBS - openOnes.length
  const others = room > 0 ? jobs.filter(j => !open(j) && alsoKept(j)).slice(-room) : []
  const kept = new Set([...openOnes, ...others])
  return jobs.filter(j => kept.has(j))
}

/** An uncertain request as the ledger keeps it: its first MAX_UNCERTAIN_CHANGES changes. */
export function keptUncertain(entry: Uncertain): Uncertain {
  trimUncertain(entry, MAX_UNCERTAIN_CHANGES)
  return entry
}

/** An uncertain request's oldest changes kept; those beyond, counted. */
function trimUncertain(entry: Uncertain, keep: number): void {
  if (entry.changes.length <= keep) return
  entry.moreChanges = (entry.moreChanges ?? 0) + entry.changes.length - keep
  entry.changes = entry.changes.slice(0, keep)
}

/** The jobs kept; those that leave are counted, as runs are. */
function keepJobs(project: ProjectLedger, kept: LedgerJob[]): void {
  const gone = project.jobs.length - kept.length
  if (gone > 0) project.olderJobs = (project.olderJobs ?? 0) + gone
  project.jobs = kept
}

function trimChanges(job: LedgerJob, keep: number): void {
  if (job.changes.length <= keep) return
  const dropped = job.changes.slice(0, job.changes.length - keep)
  const named = new Set((job.moreRepositories ?? []).map(r => r.toLowerCase()))
  for (const { repo } of dropped) {
    if (!repo || named.has(repo.toLowerCase()) || named.size >= MAX_REPOSITORIES) continue
    named.add(repo.toLowerCase())
    job.moreRepositories = [...(job.moreRepositories ?? []), repo]
  }
  job.moreChanges += job.changes.length - keep
  job.changes = keep > 0 ? job.changes.slice(-keep) : []
}

function dropOldRuns(project: ProjectLedger, keep: number): void {
  if (project.runs.length <= keep) return
  project.olderRuns += project.runs.length - keep
  project.runs = project.runs.slice(-keep)
}

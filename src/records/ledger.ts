import { RecordSigner, commentSafeJson, findRecords, hideRecord } from './record.js'

/**
 * The ledger: what the agent has done and owes for one repository, per Mintlify project. It lives in
 * the dashboard issue's body (agent/ledger/dashboard.ts writes it), in a signed hidden record;
 * nothing else anyone writes changes where a change goes. Its format is here, beside the records,
 * because more than the agent reads it: the gaps sub-action ties readers' gaps to its changes.
 */
export interface Ledger {
  v: 1
  /**
   * The dashboard issue the state was written in (its signature covers it): a copy of the state in
   * another issue is refused. None in a state written before states were bound to their issue.
   */
  issue?: number
  /** How many times the action has written the state: one more with every write. */
  version?: number
  /** When the action wrote it (epoch ms): of several dashboards, the newest state is the ledger. */
  writtenAt?: number
  projects: Record<string, ProjectLedger>
}

/** A change to the default branch: a merged pull request, or a commit pushed without one. */
export interface ChangeRef {
  /** The merge (or pushed) commit. */
  sha: string
  pr?: number
  /** The pull request's title, or the commit's first line; shortened. */
  title: string
  url?: string
  /** owner/name of its code repository, in a docs project of several (`code-repositories`). */
  repo?: string
}

export interface LedgerJob {
  id: string
  /** The docs pull request as the service reported it: the only link a fold is decided by. */
  prLink?: string
  /**
   * As last seen: `active` while the agent works; `open`, `merged` or `closed` for its docs pull
   * request; `expired` once this action closed it for `expire-after`.
   */
  state: string
  startedAt: number
  /** When its docs pull request was opened, once read from GitHub (epoch ms). */
  prCreatedAt?: number
  /** When its docs pull request was merged, closed or expired, once seen (epoch ms). */
  endedAt?: number
  /** When this action last read its docs pull request for the outcomes (epoch ms). */
  checkedAt?: number
  changes: ChangeRef[]
  /** Changes folded in beyond those listed. */
  moreChanges: number
  /**
   * The code repositories (owner/name) of changes no longer listed, in a docs project of several:
   * the outcomes per repository still count the job for them once its list is cut to fit.
   */
  moreRepositories?: string[]
  /** Its merged docs pull request's reader impact, once measured (`impact-after`): measured once. */
  impact?: ReaderImpact
  /** Its docs pull request is a draft, as last read: counted apart from those ready for review. */
  draft?: boolean
  /** Whether a person (not the agent) committed to its docs pull request, once read after the merge. */
  personCommitted?: boolean
  /**
   * Its merged docs pull request has more timeline events than one read holds and none of those
   * read is a person's commit: whether one is cannot be known, so it is left out of the zero-touch
   * rate, and not read again.
   */
  touchUnread?: true
  /** Why `expire-after` last kept its docs pull request open (a person's work on it), and when. */
  kept?: KeptOpen
  /**
   * The git email the agent commits with, from its docs pull request's first commit the first time
   * its activity was read: a person's later rebase or squash does not make their commits the agent's.
   */
  agentEmail?: string
}

/** Why a docs pull request older than `expire-after` stays open. */
export interface KeptOpen {
  why: string
  at: number
}

/**
 * Readers before and after a docs pull request merged, in two windows of `days` whole UTC days
 * either side of the merge's day. The figures are in IMPACT_MEASURES' order; null where unknown.
 */
export interface ReaderImpact {
  at: number
  days: number
  before: (number | null)[]
  after: (number | null)[]
  /** The comment on the docs pull request (`impact-comment: pr`). */
  commentUrl?: string
  /** Why its pages could not be told (no docs root, a site built elsewhere): nothing was measured. */
  unsure?: string
  /** It changed no site page: nothing was measured, its terms neither. */
  noPages?: true
}

/** What each figure of a ReaderImpact counts, in order. */
export const IMPACT_MEASURES = [
  'humanViews',
  'humanVisitors',
  'aiVisitors',
  'thumbsDown',
  'zeroClickSearches',
  'unansweredQuestions'
] as const

/**
 * A write whose answer never came (or came as a 500, 502 or 504): it may have started a job, so it
 * is not sent again by itself; a tick on its box by someone with `required-permission` sends it again.
 */
export interface Uncertain {
  /** Its id, named in its box on the dashboard (base 36 of `at`); none in entries from before boxes. */
  id?: string
  at: number
  what: 'new-job' | 'follow-up'
  job?: string
  changes: ChangeRef[]
  /**
   * Changes of the request beyond those kept (MAX_UNCERTAIN_CHANGES), counted: a box sends the
   * kept ones again, and the dashboard says the rest are to be sent with a prompt.
   */
  moreChanges?: number
  why: string
}

export interface RunEntry {
  at: number
  /** The workflow run's page. */
  url: string
  /** The run (GITHUB_RUN_ID) and step that wrote it: a re-run of the step resumes its job. */
  run: string
  step: string
  /** The newest commit the run covered. */
  head?: string
  result: string
  job?: string
  changes: number
  note: string
}

/** Changes not yet handed over: one batch, which later changes join. */
export interface Waiting {
  changes: ChangeRef[]
  why: string
  since: number
  /** With `approval: dashboard`: the batch's id, named in its checkbox on the dashboard. */
  batch?: string
  /** Who ticked the batch's box, with `required-permission`, and when: it starts once within budget. */
  approvedBy?: string
  approvedAt?: number
  /** What the run that gated the batch would have done: `new-job`, or the job a follow-up goes to. */
  wouldDo?: { decision: 'new-job' | 'follow-up'; job?: string; promptBytes: number }
}

/** A code repository's last documented commit, and when it moved there. */
export interface Watermark {
  sha: string
  at: number
  /** The repository as `code-repositories` spells it. */
  name: string
  /** Its default branch, as last read. */
  branch: string
}

export interface ProjectLedger {
  /** The newest commit of the default branch whose changes have been handed to the agent. */
  documented?: { sha: string; at: number }
  /**
   * With `code-repositories`: each code repository's last documented commit, by owner/name in
   * lower case (GitHub's names are case-insensitive). A ledger without it reads as before.
   */
  repositories?: Record<string, Watermark>
  jobs: LedgerJob[]
  /** Changes not yet handed over, and why (over budget, for example). */
  waiting: Waiting | null
  /**
   * Changes after the last documented commit (and after the waiting ones) beyond one run's bounds,
   * as the last run counted them: the next runs take them, oldest first.
   */
  backlog?: number
  uncertain: Uncertain[]
  /** When each job and follow-up started (epoch ms), for `max-jobs`: only the last week is kept. */
  spend: number[]
  /**
   * Jobs and follow-ups started per UTC day (`2026-11-24`), for the dashboard's 30-day outcomes:
   * only the last 31 days are kept.
   */
  startsByDay?: Record<string, number>
  runs: RunEntry[]
  /** Runs older than those listed, counted. */
  olderRuns: number
  /** Jobs older than those listed (they left the ledger to keep it within its share), counted. */
  olderJobs?: number
  /** Uncertain requests older than those listed (beyond MAX_UNCERTAIN), counted: their boxes are gone. */
  olderUncertain?: number
  /**
   * `impact-after` (whole days) of the last run that measured reader impact: while it is set, a
   * merged docs pull request not measured yet is kept with its changes until it can be.
   */
  impactDays?: number
}

/** Finds the dashboard issue among the repository's issues. */
export const DASHBOARD_LABEL = 'docs-agent-dashboard'

/**
 * The place the ledger's record is bound to: this repository's dashboard issue. Without an issue,
 * the place states were bound to before they named their issue (read, never written).
 */
export const dashboardPlace = (repository: string, issue?: number): string =>
  issue === undefined ? `${repository} dashboard` : `${repository} dashboard #${issue}`

/** Spending older than this is never needed again: `max-jobs` counts a week at most. */
export const LONGEST_WINDOW_MS = 7 * 86_400_000

export const emptyLedger = (): Ledger => ({ v: 1, projects: {} })

export const emptyProject = (): ProjectLedger => ({
  jobs: [],
  waiting: null,
  uncertain: [],
  spend: [],
  runs: [],
  olderRuns: 0
})

const TAG = 'mintlify-agent-ledger'
/** The state's share of the issue body (GitHub allows 65,536 characters in all). */
const MAX_STATE_CHARS = 24_000
const MAX_JOBS = 10
/** Jobs kept beyond the last MAX_JOBS, for the outcomes: those with a docs pull request in the window. */
const MAX_OUTCOME_JOBS = 50
const DAY = 86_400_000
/** The dashboard's outcomes cover docs pull requests created in the last 30 days. */
export const OUTCOME_WINDOW_MS = 30 * DAY
const MAX_DAYS = 31
const MAX_CHANGES_PER_JOB = 20
const MAX_WAITING = 50
const MAX_UNCERTAIN = 10
/** Changes an uncertain request keeps for its box: one run's bounds in one repository, twice. */
const MAX_UNCERTAIN_CHANGES = 50
const MAX_RUNS = 20
const MAX_SPEND = 2000
const MAX_TITLE = 100
/** As many as `code-repositories` may list. */
const MAX_REPOSITORIES = 50
/** Watermarks read: those listed, and room for those a run has not dropped yet. */
const MAX_WATERMARKS = 4 * MAX_REPOSITORIES

/** The signed state, as it stands at the end of the dashboard's body. */
export function ledgerRecord(
  ledger: Ledger,
  signer: RecordSigner,
  place: string,
  now: number
): string {
  const json = commentSafeJson(fitLedger(ledger, now))
  return hideRecord(TAG, signer.sign(place, json), json)
}

export type ReadLedger =
  { ok: true; ledger: Ledger } | { ok: false; why: 'none' | 'unsigned' | 'unreadable' }

/**
 * The ledger in a dashboard's body: the newest record that verifies and parses. A body without one
 * says why: none at all, none this key signed (a hand edit, or another API key), or unreadable.
 */
export function readLedger(body: string, signer: RecordSigner, place: string): ReadLedger {
  const records = findRecords(body, TAG)
  if (records.length === 0) return { ok: false, why: 'none' }
  const signed = records.find(r => signer.verify(place, r.json, r.signature))
  if (!signed) return { ok: false, why: 'unsigned' }
  try {
    return { ok: true, ledger: checkedLedger(JSON.parse(signed.json)) }
  } catch {
    return { ok: false, why: 'unreadable' }
  }
}

export type DashboardState =
  | { ok: true; ledger: Ledger; legacy: boolean }
  | { ok: false; why: 'none' | 'unsigned' | 'unreadable' }
  /** A state this action wrote in another issue, copied here: refused. */
  | { ok: false; why: 'elsewhere'; writtenIn: number; ledger: Ledger }

/**
 * The ledger in dashboard issue `issue` of `repository`: the newest record that verifies as written
 * in this issue. A record that verifies as written in another issue is a copy (`elsewhere`); one
 * that names no issue and verifies as the repository's is a state written before states were bound
 * to their issue (`legacy`), which the caller trusts only in an issue the action opened.
 */
export function readDashboardState(
  body: string,
  signer: RecordSigner,
  repository: string,
  issue: number
): DashboardState {
  const records = findRecords(body, TAG)
  if (records.length === 0) return { ok: false, why: 'none' }
  for (const record of records) {
    const claimed = claimedIssue(record.json)
    const place = dashboardPlace(repository, claimed)
    if (!signer.verify(place, record.json, record.signature)) continue
    let ledger: Ledger
    try {
      ledger = checkedLedger(JSON.parse(record.json))
    } catch {
      return { ok: false, why: 'unreadable' }
    }
    if (claimed === undefined) return { ok: true, ledger, legacy: true }
    if (claimed === issue) return { ok: true, ledger, legacy: false }
    return { ok: false, why: 'elsewhere', writtenIn: claimed, ledger }
  }
  return { ok: false, why: 'unsigned' }
}

/** The issue a record's JSON says it was written in, unchecked (its signature is checked after). */
function claimedIssue(json: string): number | undefined {
  try {
    const issue = (JSON.parse(json) as { issue?: unknown }).issue
    return Number.isSafeInteger(issue) && (issue as number) > 0 ? (issue as number) : undefined
  } catch {
    return undefined
  }
}

/** A parsed state with every field checked; anything out of shape is dropped, never trusted. */
function checkedLedger(value: unknown): Ledger {
  const raw = object(value)
  if (raw.v !== 1) throw new Error('unknown ledger version')
  const projects: Record<string, ProjectLedger> = {}
  for (const [id, p] of Object.entries(object(raw.projects))) projects[id] = checkedProject(p)
  const whole = (v: unknown): number | undefined =>
    Number.isSafeInteger(v) && (v as number) > 0 ? (v as number) : undefined
  const issue = whole(raw.issue)
  const version = whole(raw.version)
  const writtenAt = whole(raw.writtenAt)
  return {
    v: 1,
    ...(issue ? { issue } : {}),
    ...(version ? { version } : {}),
    ...(writtenAt ? { writtenAt } : {}),
    projects
  }
}

function checkedProject(value: unknown): ProjectLedger {
  const p = object(value)
  const documented = object(p.documented)
  const waiting = p.waiting ? object(p.waiting) : undefined
  return {
    documented:
      typeof documented.sha === 'string' && /^[0-9a-f]{40}$/.test(documented.sha)
        ? { sha: documented.sha, at: num(documented.at) }
        : undefined,
    ...checkedWatermarks(p.repositories),
    jobs: list(p.jobs).map(j => {
      const job = object(j)
      return {
        id: str(job.id),
        prLink: typeof job.prLink === 'string' ? job.prLink : undefined,
        state: str(job.state),
        startedAt: num(job.startedAt),
        ...optionalTime('prCreatedAt', job.prCreatedAt),
        ...optionalTime('endedAt', job.endedAt),
        ...optionalTime('checkedAt', job.checkedAt),
        changes: list(job.changes).map(checkedChange),
        moreChanges: num(job.moreChanges),
        ...checkedRepositories(job.moreRepositories),
        ...checkedImpact(job.impact),
        ...checkedTouch(job)
      }
    }),
    waiting: waiting
      ? {
          changes: list(waiting.changes).map(checkedChange),
          why: str(waiting.why),
          since: num(waiting.since),
          ...checkedApproval(waiting)
        }
      : null,
    uncertain: list(p.uncertain).map(u => {
      const entry = object(u)
      return {
        ...(typeof entry.id === 'string' && BATCH_ID.test(entry.id) ? { id: entry.id } : {}),
        at: num(entry.at),
        what: entry.what === 'follow-up' ? 'follow-up' : 'new-job',
        job: typeof entry.job === 'string' ? entry.job : undefined,
        changes: list(entry.changes).map(checkedChange),
        ...(num(entry.moreChanges) > 0 ? { moreChanges: Math.floor(num(entry.moreChanges)) } : {}),
        why: str(entry.why)
      }
    }),
    spend: list(p.spend).filter((n): n is number => typeof n === 'number'),
    ...checkedDays(p.startsByDay),
    runs: list(p.runs).map(r => {
      const run = object(r)
      return {
        at: num(run.at),
        url: str(run.url),
        run: str(run.run),
        step: str(run.step),
        head: typeof run.head === 'string' ? run.head : undefined,
        result: str(run.result),
        job: typeof run.job === 'string' ? run.job : undefined,
        changes: num(run.changes),
        note: str(run.note)
      }
    }),
    olderRuns: num(p.olderRuns),
    ...(num(p.olderJobs) > 0 ? { olderJobs: Math.floor(num(p.olderJobs)) } : {}),
    ...(num(p.olderUncertain) > 0 ? { olderUncertain: Math.floor(num(p.olderUncertain)) } : {}),
    ...(num(p.backlog) > 0 ? { backlog: Math.floor(num(p.backlog)) } : {}),
    ...(Number.isInteger(p.impactDays) &&
    (p.impactDays as number) >= 1 &&
    (p.impactDays as number) <= 28
      ? { impactDays: p.impactDays as number }
      : {})
  }
}

/** A batch id is a short lower-case word (it is shown in a checkbox line); a login is GitHub's. */
const BATCH_ID = /^[a-z0-9]{1,16}$/
const LOGIN = /^[A-Za-z0-9-]{1,39}(\[bot\])?$/

/** The approval fields of a waiting batch, each dropped when out of shape. */
function checkedApproval(w: Record<string, unknown>): Partial<Waiting> {
  const would = object(w.wouldDo)
  return {
    ...(typeof w.batch === 'string' && BATCH_ID.test(w.batch) ? { batch: w.batch } : {}),
    ...(typeof w.approvedBy === 'string' && LOGIN.test(w.approvedBy)
      ? { approvedBy: w.approvedBy, ...optionalTime('approvedAt', w.approvedAt) }
      : {}),
    ...(would.decision === 'new-job' || would.decision === 'follow-up'
      ? {
          wouldDo: {
            decision: would.decision,
            ...(typeof would.job === 'string' ? { job: would.job.slice(0, 100) } : {}),
            promptBytes: num(would.promptBytes)
          }
        }
      : {})
  }
}

/** Day counts: only `YYYY-MM-DD` keys with whole, non-negative counts; at most the last 31 days. */
function checkedDays(value: unknown): Pick<ProjectLedger, 'startsByDay'> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {}
  const days: Record<string, number> = {}
  const valid = Object.entries(value as Record<string, unknown>)
    .filter(
      (e): e is [string, number] =>
        /^\d{4}-\d{2}-\d{2}$/.test(e[0]) &&
        typeof e[1] === 'number' &&
        Number.isInteger(e[1]) &&
        e[1] >= 0 &&
        e[1] <= 1_000_000
    )
    .sort((a, b) => a[0].localeCompare(b[0]))
    .slice(-MAX_DAYS)
  for (const [day, count] of valid) days[day] = count
  return { startsByDay: days }
}

/** An impact's `unsure` is kept up to this many characters: it is one line. */
const MAX_UNSURE = 300

/** A measured impact: whole, non-negative figures (or null), one per measure; anything else dropped. */
/** Shown on the dashboard: the reason is cut to MAX_KEPT_WHY characters. */
const MAX_KEPT_WHY = 200

/** What the ledger knows of people's work on a docs pull request, each field dropped when out of shape. */
function checkedTouch(
  job: Record<string, unknown>
): Pick<LedgerJob, 'draft' | 'personCommitted' | 'touchUnread' | 'kept' | 'agentEmail'> {
  const kept = object(job.kept)
  return {
    ...(typeof job.agentEmail === 'string' && /^[^\s@]{1,64}@[^\s@]{1,190}$/.test(job.agentEmail)
      ? { agentEmail: job.agentEmail.toLowerCase() }
      : {}),
    ...(job.draft === true ? { draft: true } : {}),
    ...(typeof job.personCommitted === 'boolean' ? { personCommitted: job.personCommitted } : {}),
    ...(job.touchUnread === true ? { touchUnread: true as const } : {}),
    ...(typeof kept.why === 'string' && kept.why && num(kept.at) > 0
      ? { kept: { why: kept.why.slice(0, MAX_KEPT_WHY), at: num(kept.at) } }
      : {})
  }
}

function checkedImpact(value: unknown): Pick<LedgerJob, 'impact'> {
  const i = object(value)
  const figures = (v: unknown): (number | null)[] | undefined => {
    const l = list(v)
    const ok = l.every(n => n === null || (typeof n === 'number' && Number.isInteger(n) && n >= 0))
    return ok && l.length === IMPACT_MEASURES.length ? (l as (number | null)[]) : undefined
  }
  const before = figures(i.before)
  const after = figures(i.after)
  const days = num(i.days)
  if (!before || !after || !Number.isInteger(days) || days < 1 || num(i.at) <= 0) return {}
  const url =
    typeof i.commentUrl === 'string' && i.commentUrl.startsWith('https://')
      ? i.commentUrl
      : undefined
  const unsure = typeof i.unsure === 'string' ? i.unsure.slice(0, MAX_UNSURE) : undefined
  return {
    impact: {
      at: num(i.at),
      days,
      before,
      after,
      ...(url ? { commentUrl: url } : {}),
      ...(unsure ? { unsure } : {}),
      ...(i.noPages === true ? { noPages: true as const } : {})
    }
  }
}

/** The UTC day of a time, as `startsByDay` keys it. */
export const utcDay = (at: number): string => new Date(at).toISOString().slice(0, 10)

/** A job or follow-up started at `at`: for `max-jobs` and for the 30-day outcomes. */
export function noteStart(project: ProjectLedger, at: number): void {
  project.spend.push(at)
  const days = (project.startsByDay ??= {})
  const day = utcDay(at)
  days[day] = (days[day] ?? 0) + 1
}

/** Jobs and follow-ups started in the last 30 days (whole UTC days, today included). */
export function startsIn30Days(project: ProjectLedger, now: number): number {
  const from = utcDay(now - OUTCOME_WINDOW_MS + DAY)
  return Object.entries(project.startsByDay ?? {})
    .filter(([day]) => day >= from && day <= utcDay(now))
    .reduce((sum, [, n]) => sum + n, 0)
}

/** When a job's docs pull request was opened, as far as known: never before its job started. */
export const openedAt = (job: LedgerJob): number => job.prCreatedAt ?? job.startedAt

/**
 * A merged docs pull request whose reader impact is still to be measured (`impactDays` set): until
 * its windows and the day of lag are over, and a week more for a weekly schedule.
 */
function awaitsImpact(job: LedgerJob, impactDays: number | undefined, now: number): boolean {
  if (!impactDays || job.state !== 'merged' || job.impact || job.endedAt === undefined) return false
  return job.endedAt > now - (impactDays + 2 + 7) * DAY
}

function checkedChange(value: unknown): ChangeRef {
  const c = object(value)
  return {
    sha: str(c.sha),
    pr: typeof c.pr === 'number' ? c.pr : undefined,
    title: str(c.title).slice(0, MAX_TITLE),
    url: typeof c.url === 'string' ? c.url : undefined,
    ...(typeof c.repo === 'string' && REPOSITORY.test(c.repo) ? { repo: c.repo } : {})
  }
}

/** A repository's owner/name as GitHub allows them; a branch name of reasonable length. */
const REPOSITORY = /^[A-Za-z0-9-]{1,39}\/[A-Za-z0-9_.-]{1,100}$/
const BRANCH = /^[^\s]{1,255}$/

/** A job's repositories of changes no longer listed: names out of shape dropped; MAX_REPOSITORIES. */
function checkedRepositories(value: unknown): Pick<LedgerJob, 'moreRepositories'> {
  const names = list(value)
    .filter((r): r is string => typeof r === 'string' && REPOSITORY.test(r))
    .slice(0, MAX_REPOSITORIES)
  return names.length ? { moreRepositories: names } : {}
}

/**
 * The code repositories' watermarks, each dropped when out of shape; at most MAX_WATERMARKS. Runs
 * drop those of repositories no longer listed when they write; a ledger an older version wrote
 * may hold more than MAX_REPOSITORIES, and a listed repository's must not be the one cut.
 */
function checkedWatermarks(value: unknown): Pick<ProjectLedger, 'repositories'> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {}
  const marks: Record<string, Watermark> = {}
  for (const [key, raw] of Object.entries(value as Record<string, unknown>).slice(
    0,
    MAX_WATERMARKS
  )) {
    const mark = object(raw)
    const name = str(mark.name)
    if (
      typeof mark.sha !== 'string' ||
      !/^[0-9a-f]{40}$/.test(mark.sha) ||
      !REPOSITORY.test(name) ||
      key !== name.toLowerCase() ||
      !BRANCH.test(str(mark.branch))
    )
      continue
    marks[key] = { sha: mark.sha, at: num(mark.at), name, branch: str(mark.branch) }
  }
  return { repositories: marks }
}

const object = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {}
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])
const str = (v: unknown): string => (typeof v === 'string' ? v : '')
const optionalTime = <K extends string>(key: K, v: unknown): Partial<Record<K, number>> =>
  typeof v === 'number' && Number.isFinite(v) && v > 0 ? ({ [key]: v } as Record<K, number>) : {}
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0)

/**
 * The ledger within its share of the body, however long the history: the oldest runs and the
 * change lists of the oldest jobs are summarised by their counts first.
 */
export function fitLedger(ledger: Ledger, now: number): Ledger {
  const fitted: Ledger = structuredClone(ledger)
  for (const project of Object.values(fitted.projects)) {
    project.spend = project.spend.filter(at => at > now - LONGEST_WINDOW_MS).slice(-MAX_SPEND)
    if (project.startsByDay) {
      const from = utcDay(now - MAX_DAYS * DAY)
      project.startsByDay = Object.fromEntries(
        Object.entries(project.startsByDay).filter(([day]) => day > from)
      )
    }
    for (const job of project.jobs) trimChanges(job, MAX_CHANGES_PER_JOB)
    // Beyond the last MAX_JOBS, a job stays only for the outcomes: a docs pull request opened in
    // the window, without its change list (counted); and, where reader impact is measured, one
    // merged but not measured yet, with its changes (their titles give the terms it is measured on).
    const waits = (j: LedgerJob): boolean => awaitsImpact(j, project.impactDays, now)
    const older = project.jobs
      .slice(0, Math.max(0, project.jobs.length - MAX_JOBS))
      .filter(j => j.prLink && (openedAt(j) > now - OUTCOME_WINDOW_MS || waits(j)))
      .slice(-MAX_OUTCOME_JOBS)
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
  const size = (): number => commentSafeJson(fitted).length
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
  // Last, the outcomes give way: only the last MAX_JOBS jobs stay.
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

/** A change's title as the ledger keeps it: one line, shortened. */
export const ledgerTitle = (text: string): string => {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > MAX_TITLE ? `${line.slice(0, MAX_TITLE - 1)}…` : line
}

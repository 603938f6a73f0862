import type { GitHubSession } from '../github/session.js'
import type { AgentJob } from '../mintlify/agent-jobs.js'
import type { Clock } from '../runner/clock.js'
import type { Logger } from '../runner/logger.js'
import type { ChangeBatch } from './batch.js'
import type { FoldTarget } from './ledger/fold.js'
import type { JobRecorder } from './ledger/ledger-session.js'
import type { CommentState, LiveComment } from './comment/live-comment.js'
import type { Markers } from './comment/marker.js'

/**
 * An issue labelled again whose earlier job goes on: still running (this run waits for it), or its
 * docs pull request still open (the issue is sent to it as a follow-up).
 */
export interface Continued {
  jobId: string
  issue: number
  /** The job's open docs pull request, as the service reports it: the issue went to it as a follow-up. */
  docsPr?: string
}

/** What to ask the service: a new job's prompt, a follow-up to `jobId`, or just `jobId` to wait for. */
export interface JobTarget {
  prompt?: string
  jobId?: string
  /** With a follow-up: the new job's prompt, should the service refuse the follow-up. */
  fallbackPrompt?: string
  /** What starts that new job, as the notice says it ('this change' unless given). */
  fallbackFor?: string
}

/** What the summary tells of a run, whatever it decided. */
export interface RunAbout {
  /** Things the user should see as notices (why changes did not join the open docs pull request). */
  notices: string[]
  /** The pull request or comparison the prompt was built from. */
  source?: string
  /** The changes handed over, or held (change runs). */
  batch?: ChangeBatch
  /** The dashboard issue. */
  dashboardUrl?: string
  /** Where the budget stands: "3 of 5/day used". */
  budget?: string
}

/** Nothing starts: `skip` (result `skipped`), or `wait`, the changes waiting on the dashboard for approval (result `waiting`). */
export interface StoppedRun extends RunAbout {
  kind: 'skip' | 'wait'
  why: string
  /**
   * A control held the batch on the dashboard (approval, the budget, max-open): nothing is spent
   * now and a later run or a tick will spend it, so the run checks the key and project first.
   */
  held?: true
  /** With approval: what a tick would start, as the run would start it now. */
  wouldStart?: WouldStart
}

/** What a held batch would start once approved: a preview shows it, with its prompt and credits. */
export interface WouldStart {
  decision: 'new-job' | 'follow-up'
  jobId?: string
  prompt: string
}

/** A new job, a follow-up, or a job to wait for (decision `new-job` or `follow-up`). */
export interface StartingRun extends RunAbout {
  kind: 'new-job' | 'follow-up'
  request: JobTarget
  /** The live comment on the issue or pull request. */
  comment?: LiveComment
  /** The prompt goes to an earlier job as a follow-up (a resumed job takes none). */
  followUp: boolean
  /** The issue was labelled again and its earlier job goes on (waited for, or followed up). */
  continued?: Continued
  /** The earlier job the changes go to, instead of a new one. */
  fold?: FoldTarget
  /** What the dashboard records of the job: a change run's batch, or a run it counts. */
  ledger?: JobRecorder
  /**
   * A change run's batch, once its job has a docs pull request: its pull requests are told where
   * their docs went (besides `commented`, which the live comment tells), and with
   * `reviewers: authors` their authors are asked to review it.
   */
  changes?: { batch: ChangeBatch; commented?: number; tellSources: boolean }
  /** A review follow-up on the docs pull request itself: the record naming its job is there already. */
  onDocsPr?: boolean
  /**
   * Called before the job is created or the follow-up sent: makes sure the run can comment where it
   * should (LiveComment.claim), and throws, naming the permission, when it cannot.
   */
  beforeSpending?: () => Promise<void>
}

/** What a run prepares before the job, on every trigger: one of these, set where the flow decides. */
export type PreparedRun = StoppedRun | StartingRun

/** A run that starts nothing, and why. */
export const skippedRun = (why: string, about: Partial<RunAbout> = {}): StoppedRun => ({
  notices: [],
  ...about,
  kind: 'skip',
  why
})

/** A run that asks the service: a follow-up when the prompt goes to an earlier job, else a new job. */
export function startingRun(
  run: Omit<StartingRun, 'kind' | 'notices'> & { notices?: string[] }
): StartingRun {
  return { notices: [], ...run, kind: run.followUp ? 'follow-up' : 'new-job' }
}

/** A run that starts nothing. */
export const isStopped = (run: PreparedRun): run is StoppedRun =>
  run.kind === 'skip' || run.kind === 'wait'

/** What every flow is given besides its settings and the event: the log, the clock, GitHub's session… */
export interface FlowDeps {
  log: Logger
  /** Paces GitHub's retries, and stamps the ledger: the runner's clock. */
  clock: Clock
  /** The run's GitHub: one client per token, and the docs repository's door; closed when it ends. */
  session: GitHubSession
  saveState: (state: CommentState) => void
  signal?: AbortSignal
  /** Signs the markers of the live comments this run writes, and reads only those signed. */
  markers: Markers
  /** Reads a job on the service: is an earlier job still running? */
  readJob: (jobId: string) => Promise<AgentJob>
}

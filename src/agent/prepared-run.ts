import type { AgentJob } from '../mintlify/agent-jobs.js'
import type { ChangeBatch } from './batch.js'
import type { FoldTarget } from './ledger/fold.js'
import type { LiveComment } from './comment/live-comment.js'
import type { Result } from './outcome.js'

export interface JobTarget {
  prompt?: string
  jobId?: string
  /** With a follow-up: the new job's prompt, should the service refuse the follow-up. */
  fallbackPrompt?: string
  /** What starts that new job, as the notice says it ('this change' unless given). */
  fallbackFor?: string
}

/** What the triggering issue adds to a run: maybe a refusal, maybe a comment to keep current. */
export interface IssueRun {
  skipped?: string
  /** What to ask the service: a new job's prompt, a follow-up to `jobId`, or just `jobId` to wait for. */
  request: JobTarget
  comment?: LiveComment
  /** The prompt goes to a job recorded on the issue, as a follow-up. */
  followUp: boolean
  /** The issue was labelled again and its earlier job goes on (waited for, or followed up). */
  continued?: Continued
  /** Things the user should see as notices (why the label added again starts a new job). */
  notices?: string[]
  /**
   * Called before the job is created or the follow-up sent: makes sure the run can comment where it
   * should (LiveComment.claim), and throws, naming the permission, when it cannot.
   */
  beforeSpending?: () => Promise<void>
}

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

/** What a run decided: a new job, a follow-up to an earlier one, or nothing. */
export type Decision = 'new-job' | 'follow-up' | 'skip'

/** What a run does with the ledger around the service's write (change runs with the dashboard). */
export interface LedgerHooks {
  /** The service accepted the new job or the follow-up. */
  accepted(job: AgentJob, followUp: boolean): Promise<void>
  /** The write's answer never came: it may have started a job. */
  uncertain(followUp: boolean, why: string, jobId?: string): Promise<void>
  /** The run ended with this result. */
  finished(job: AgentJob, result: Result): Promise<void>
}

/** What a run prepares before the job, on every trigger. */
export interface PreparedRun extends IssueRun {
  /** The pull request or comparison the prompt was built from. */
  source?: string
  /** The earlier job the changes go to, instead of a new one. */
  fold?: FoldTarget
  /** Things the user should see as notices (why changes did not join the open docs pull request). */
  notices: string[]
  decision?: Decision
  /** A dry run: everything but the writes; `request.prompt` is what would be sent. */
  dryRun?: boolean
  /** The changes handed over (change runs), for the summary. */
  batch?: ChangeBatch
  ledger?: LedgerHooks
  /** Once the job has ended with a docs pull request: `reviewers: authors` (change runs). */
  requestReviewers?: (job: AgentJob) => Promise<void>
  /** The dashboard issue, for the summary. */
  dashboardUrl?: string
  /** Where the budget stands, for the summary: "3 of 5/day used". */
  budget?: string
  /** A review follow-up on the docs pull request itself: the record naming its job is there already. */
  onDocsPr?: boolean
  /** Nothing started because the changes wait on the dashboard for approval (`result: waiting`). */
  waiting?: boolean
}

import type { AgentJob } from '../mintlify/agent-jobs.js'
import type { ChangeBatch } from './change/change-batch.js'
import type { FoldTarget } from './change/fold.js'
import type { IssueRun } from './issue/issue-run.js'
import type { Result } from './outcome.js'

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

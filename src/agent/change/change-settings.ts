import type { GitHubSession } from '../../github/api.js'
import type { AgentJob } from '../../mintlify/agent-jobs.js'
import type { Clock } from '../../runner/clock.js'
import type { Logger } from '../../runner/logger.js'
import type { CommentState } from '../comment/live-comment.js'
import type { Markers } from '../comment/marker.js'
import type { TriggerSettings } from '../issue/trigger.js'
import type { JobBudget } from '../ledger/budget.js'
import type { ApprovalMode } from './approval.js'
import type { PlanSettings } from './change-plan.js'
import type { PathFilter } from './path-filter.js'
import type { REVIEWER_MODES } from './reviewers.js'

export const FOLD_MODES = ['open-pr', 'never'] as const
export type FoldMode = (typeof FOLD_MODES)[number]

/** The inputs that shape a run from code changes. */
export interface ChangeSettings extends PlanSettings {
  /** open-pr: send changes to the job whose docs pull request is still open; never: a new job each time. */
  fold: FoldMode
  /** Pull requests with this label are skipped. */
  skipLabel: string
  /** Add an excerpt of the patches to the prompt. */
  includeDiff: boolean
  /** Reads the docs pull request's state when github-token cannot (a private docs repository); masked. */
  docsToken: string
  dashboardTitle: string
  paths: PathFilter
  maxJobs?: JobBudget
  /** `expire-after`: docs pull requests open longer are closed (needs `docs-token`). */
  expireAfter?: { ms: number; text: string }
  /** `max-open`: at most this many docs pull requests of the project open (a running job counts). */
  maxOpen?: number
  /** `reviewers: authors`: the changes' authors are requested as reviewers (needs `docs-token`). */
  reviewers?: (typeof REVIEWER_MODES)[number]
  /** `approval: dashboard`: the changes wait for a tick on the dashboard before anything starts. */
  approval?: ApprovalMode
  dryRun: boolean
}

/** Everything a change run reads of the inputs. */
export type ChangeRunSettings = TriggerSettings &
  ChangeSettings & { projectId: string; apiKey: string }

export interface RunDeps {
  log: Logger
  /** Paces GitHub's retries, and stamps the ledger: the runner's clock. */
  clock: Clock
  /** The run's GitHub connections, closed when it ends. */
  session?: GitHubSession
  saveState: (state: CommentState) => void
  signal?: AbortSignal
  /** Reads a job on the service: is an earlier batch's job still running? */
  readJob: (jobId: string) => Promise<AgentJob>
  /** Signs the markers of the live comments this run writes, and reads only those signed. */
  markers: Markers
  /** An edit of the dashboard with `approval: dashboard`: a tick is judged, then the run catches up. */
  tick?: boolean
}

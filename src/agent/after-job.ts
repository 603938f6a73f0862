import type { RunEvent } from '../github/event.js'
import type { GitHubSession } from '../github/session.js'
import type { AgentJob } from '../mintlify/agent-jobs.js'
import { errorText } from '../runner/errors.js'
import type { Logger } from '../runner/logger.js'
import type { Clock } from '../runner/clock.js'
import { recordDocsPr } from './docs-pr-record.js'
import { docsPulls } from './docs-repository.js'
import type { Result } from './outcome.js'
import type { StartingRun } from './prepared-run.js'
import type { Settings } from './settings.js'

/** How the job went, as the run knows it once it stops waiting: what every effect reads. */
export interface JobEnd {
  /** The job, as last seen; none when the run failed before one existed. */
  job?: AgentJob
  /** How it ended; none when the run failed (the failure says why). */
  result?: Result
  /** Why the run failed, for the comment (a refused key, a service that did not answer). */
  failure?: string
  /** The service's answer to a creation or a follow-up never came: it may have acted. */
  uncertain?: { followUp: boolean; why: string; jobId?: string }
}

/** What an action does of its own once the job ended (the changes sub-action: its sources). */
export type OwnAfterJob<S> = (
  settings: S,
  event: RunEvent,
  ended: { job: AgentJob; run: StartingRun },
  deps: AfterJobDeps
) => Promise<void>

export interface AfterJobDeps {
  log: Logger
  clock: Clock
  session: GitHubSession
  signal: AbortSignal
}

/** The settings the effects read. */
export type AfterJobSettings = Pick<
  Settings,
  'apiKey' | 'projectId' | 'comment' | 'triggerPhrase' | 'docsToken' | 'codeToken'
>

/**
 * Everything that follows a job, for every trigger, in this order; each effect's failure is a
 * warning, never the run's:
 * 1. the live comment's last word: the outcome, or why the run failed before a job;
 * 2. the dashboard's record: how the job ended, or that the service's answer never came;
 * 3. the docs pull request's record of its job, so that its reviews can reach it (`docs-token`);
 * 4. what the action does of its own (the changes sub-action: tell the batch's pull requests,
 *    request their authors' reviews).
 * A cancelled run says its last word and records, and starts nothing more.
 */
export async function afterJob<S extends AfterJobSettings>(
  end: JobEnd,
  run: StartingRun,
  own: { settings: S; event: RunEvent; afterJob?: OwnAfterJob<S> },
  deps: AfterJobDeps
): Promise<void> {
  const { comment, ledger } = run
  const { log, signal } = deps
  const { settings, event } = own
  const { job, result } = end
  if (job && comment) await comment.finish(job, result ?? 'stopped')
  // A failure before any job (a refused key, an unknown project, an api-url that does not answer)
  // is said on the issue too, where the person who asked looks for the answer.
  else if (comment && end.failure && !signal.aborted) await comment.failed(end.failure)
  if (ledger && end.uncertain) {
    const { followUp, why, jobId } = end.uncertain
    await ledger
      .uncertain(followUp, why, jobId)
      .catch(error =>
        log.warning(`The dashboard could not record the uncertain write: ${errorText(error)}`)
      )
  }
  if (ledger && job && result)
    await ledger
      .finished(job, result)
      .catch(error =>
        log.warning(`The dashboard could not record how the run ended: ${errorText(error)}`)
      )
  if (!job?.prLink || signal.aborted) return
  if (settings.docsToken && !run.onDocsPr)
    await recordDocsPr(job, {
      ...settings,
      serverUrl: event.serverUrl,
      log,
      docs: docsPulls(settings, event.apiUrl, deps)
    })
  await own
    .afterJob?.(settings, event, { job, run }, deps)
    .catch(error => log.warning(`Could not finish what follows the job: ${errorText(error)}`))
}

import { type GitHubSession, connectGitHub } from '../../github/api.js'
import type { RunEvent } from '../../github/event.js'
import type { AgentJob } from '../../mintlify/agent-jobs.js'
import type { Clock } from '../../runner/clock.js'
import { errorText } from '../../runner/errors.js'
import type { Logger } from '../../runner/logger.js'
import type { JobBudget } from '../settings.js'
import { Dashboard } from '../ledger/dashboard.js'
import { LedgerSession } from '../ledger/ledger-session.js'
import type { LedgerHooks } from '../prepared-run.js'
import { RecordSigner } from '../../records/record.js'

export interface IssueBudgetSettings {
  apiKey: string
  githubToken: string
  projectId: string
  dashboardTitle: string
  maxJobs: JobBudget
}

/**
 * With `max-jobs`, a job or follow-up an issue starts counts against the budget that holds back
 * change runs: it is written on the dashboard once the service accepted it. An issue run is a
 * person's request, so the budget never holds it back, and a dashboard that cannot be read or
 * written costs the run nothing but a warning.
 */
export async function issueBudgetHooks(
  settings: IssueBudgetSettings,
  event: RunEvent,
  deps: { log: Logger; clock: Clock; session?: GitHubSession; signal?: AbortSignal }
): Promise<{ hooks?: LedgerHooks; dashboardUrl?: string }> {
  const { log, clock } = deps
  const what = event.issue ? `issue #${event.issue.number}` : 'a manual run'
  let ledger: LedgerSession
  try {
    const github = connectGitHub(settings.githubToken, event, deps.signal, {
      clock,
      session: deps.session
    })
    const dashboard = await Dashboard.open(github, {
      title: settings.dashboardTitle,
      signer: new RecordSigner(settings.apiKey),
      view: { repository: `${event.owner}/${event.repo}`, serverUrl: event.serverUrl },
      now: () => clock.wallNow()
    })
    ledger = new LedgerSession(
      dashboard,
      settings.projectId,
      { id: event.runId, url: event.runUrl, attempt: event.runAttempt, step: event.step },
      () => clock.wallNow(),
      settings.maxJobs
    )
  } catch (error) {
    log.warning(
      `${errorText(error)} This run's job is not counted against 'max-jobs'; the run goes on.`
    )
    return {}
  }
  const count = async (job: AgentJob | undefined, followUp: boolean, note: string) => {
    try {
      await ledger.counted(job, followUp, note)
    } catch (error) {
      log.warning(
        `The dashboard could not count this run's ${followUp ? 'follow-up' : 'job'} against 'max-jobs': ${errorText(error)}`
      )
    }
  }
  return {
    dashboardUrl: ledger.url,
    hooks: {
      accepted: (job, followUp) => count(job, followUp, `from ${what}`),
      // No answer came: it may have started a job, and a job may cost credits.
      uncertain: (followUp, why, jobId) =>
        count(jobId ? { id: jobId } : undefined, followUp, `from ${what}, uncertain: ${why}`),
      finished: async () => {}
    }
  }
}

import type { GitHubSession } from '../../github/session.js'
import type { RunEvent } from '../../github/event.js'
import type { AgentJob } from '../../mintlify/agent-jobs.js'
import type { Clock } from '../../runner/clock.js'
import { ExplainedError, errorText } from '../../runner/errors.js'
import type { Logger } from '../../runner/logger.js'
import { Dashboard } from './dashboard.js'
import { NewerLedgerError } from './dashboard-choice.js'
import { LedgerSession } from './ledger-session.js'
import { RecordSigner } from '../../records/record.js'
import { type Limits, overBudget } from './budget.js'

export interface CountedSettings extends Limits {
  apiKey: string
  githubToken: string
  projectId: string
  dashboardTitle: string
}

/** What a run counts on the dashboard: prepared-run.ts's LedgerHooks, which the ledger cannot import. */
export interface CountingHooks {
  accepted(job: AgentJob, followUp: boolean): Promise<void>
  uncertain(followUp: boolean, why: string, jobId?: string): Promise<void>
  finished(): Promise<void>
}

/** How a run outside the ledger's batch stands to `max-jobs`. */
export interface CountedRun {
  /** Count the job or follow-up on the dashboard once the service accepted it. */
  hooks?: CountingHooks
  dashboardUrl?: string
  /** Over budget, with `hold`: why nothing starts. */
  over?: string
}

/**
 * With `max-jobs`, a job or follow-up started outside the dashboard's batch counts against the
 * budget that holds back change runs: it is written on the dashboard once the service accepted it.
 * - An issue run (`hold: false`) is a person's request: the budget never holds it back, and a
 *   dashboard that cannot be read or written costs it nothing but a warning.
 * - A change run on its own (`hold: true`: a pull request not merged yet, another branch) starts by
 *   itself on every push: over budget it starts nothing, and a dashboard that cannot be read or
 *   written stops it, as it would stop a change run with the ledger.
 */
export async function countedRun(
  settings: CountedSettings,
  event: RunEvent,
  deps: { log: Logger; clock: Clock; session: GitHubSession; signal?: AbortSignal },
  run: { what: string; hold: boolean }
): Promise<CountedRun> {
  const { log, clock } = deps
  let ledger: LedgerSession
  try {
    const github = deps.session.repository(settings.githubToken, event)
    const dashboard = await Dashboard.open(github, {
      title: settings.dashboardTitle,
      signer: new RecordSigner(settings.apiKey),
      view: {
        repository: `${event.owner}/${event.repo}`,
        serverUrl: event.serverUrl,
        limits: settings
      },
      now: () => clock.wallNow()
    })
    ledger = new LedgerSession(
      dashboard,
      settings.projectId,
      { id: event.runId, url: event.runUrl, attempt: event.runAttempt, step: event.step },
      () => clock.wallNow(),
      settings
    )
    if (run.hold) {
      const state = ledger.budgetState()
      if (state?.left === 0)
        return {
          dashboardUrl: ledger.url,
          over: `${overBudget(state, settings, clock.wallNow())} Nothing starts for ${run.what}, which runs on its own, outside the dashboard's batch: a later push to it runs again, and once merged it is documented with the next batch.`
        }
      await ledger.ensureWritable()
    }
  } catch (error) {
    // A newer version keeps the ledger: this one may not start what it cannot count there.
    if (error instanceof NewerLedgerError) throw error
    if (run.hold)
      throw new ExplainedError(
        `${errorText(error)} With 'max-jobs', ${run.what} starts a job only once the dashboard can count it.`
      )
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
      accepted: (job, followUp) => count(job, followUp, `from ${run.what}`),
      // No answer came: it may have started a job, and a job may cost credits.
      uncertain: (followUp, why, jobId) =>
        count(jobId ? { id: jobId } : undefined, followUp, `from ${run.what}, uncertain: ${why}`),
      finished: async () => {}
    }
  }
}

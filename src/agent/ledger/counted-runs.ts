import type { GitHubSession } from '../../github/session.js'
import type { RunEvent } from '../../github/event.js'
import type { AgentJob } from '../../mintlify/agent-jobs.js'
import type { Clock } from '../../runner/clock.js'
import { ExplainedError, errorText } from '../../runner/errors.js'
import type { Logger } from '../../runner/logger.js'
import { NewerLedgerError } from './dashboard-choice.js'
import type { JobRecorder, LedgerSession } from './ledger-session.js'
import { type LedgerSettings, openRunLedger } from './run-ledger.js'

export interface CountedSettings extends LedgerSettings {
  githubToken: string
}

/** A run outside the ledger's batch, counted on the dashboard: the budget gate reads its ledger. */
export interface CountedRun {
  /** Count the job or follow-up on the dashboard once the service accepted it. */
  hooks?: JobRecorder
  dashboardUrl?: string
  /** What opening the dashboard said (found by its title, a newer one chosen): the user's to see. */
  notices?: string[]
  /** Where the budgets stand, for the budget gate (a change on its own). */
  ledger?: Pick<LedgerSession, 'budgetState'>
}

/**
 * With a budget, a job or follow-up started outside the dashboard's batch counts against it: it is
 * written on the dashboard once the service accepted it.
 * - A person's request (an issue, a comment, a review; `hold: false`): a dashboard that cannot be
 *   read or written costs it nothing but a warning.
 * - A change run on its own (`hold: true`: a pull request not merged yet, another branch) starts by
 *   itself on every push: the budget gate may hold it (it reads `ledger`), and a dashboard that
 *   cannot be read or written stops it, as it would stop a change run with the ledger.
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
    ledger = (
      await openRunLedger(github, settings, event, clock, {
        signal: deps.signal,
        warn: message => log.warning(message)
      })
    ).session
    if (run.hold) await ledger.ensureWritable()
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
  // What the dashboard says on the way (found by its title, created, reopened) is the user's to see,
  // as in a change run: what opening it said goes with the run's notices, what counting says after.
  const opened = [...ledger.notices]
  const count = async (job: AgentJob | undefined, followUp: boolean, note: string) => {
    const known = ledger.notices.length
    try {
      await ledger.counted(job, followUp, note)
      for (const notice of ledger.notices.slice(known)) log.notice(notice)
    } catch (error) {
      log.warning(
        `The dashboard could not count this run's ${followUp ? 'follow-up' : 'job'} against 'max-jobs': ${errorText(error)}`
      )
    }
  }
  return {
    dashboardUrl: ledger.url,
    ledger,
    notices: opened,
    hooks: {
      accepted: (job, followUp) => count(job, followUp, `from ${run.what}`),
      // No answer came: it may have started a job, and a job may cost credits.
      uncertain: (followUp, why, jobId) =>
        count(jobId ? { id: jobId } : undefined, followUp, `from ${run.what}, uncertain: ${why}`),
      finished: async () => {}
    }
  }
}

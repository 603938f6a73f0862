import type { RunEvent } from '../../github/event.js'
import { RecordSigner } from '../../records/record.js'
import type { Clock } from '../../runner/clock.js'
import { type Inputs, secretsOf } from '../settings.js'
import type { Limits } from './budget.js'
import { Dashboard, type DashboardIssues } from './dashboard.js'
import { LedgerSession } from './ledger-session.js'

/** What opening a run's ledger takes from its settings: the key, the project, the limits, the secrets. */
export interface LedgerSettings
  extends Limits, Partial<Pick<Inputs, 'githubToken' | 'docsToken' | 'codeToken'>> {
  apiKey: string
  projectId: string
  dashboardTitle: string
}

/**
 * The run's dashboard in its repository (found by its title, its state verified with the key, its
 * links on the run's GitHub, the project's limits beside what it used) and the ledger session that
 * records for this run and project. `withoutLedger`: how the run could go without one, when it can;
 * `signal`: the run's cancel, which ends the pause before a write is read back.
 */
export async function openRunLedger(
  github: DashboardIssues,
  settings: LedgerSettings,
  event: RunEvent,
  clock: Pick<Clock, 'wallNow' | 'sleep'>,
  {
    withoutLedger,
    signal,
    warn
  }: { withoutLedger?: string; signal?: AbortSignal; warn?: (message: string) => void } = {}
): Promise<{ dashboard: Dashboard; session: LedgerSession }> {
  const dashboard = await Dashboard.open(github, {
    title: settings.dashboardTitle,
    signer: new RecordSigner(settings.apiKey),
    secrets: secretsOf(settings),
    view: {
      repository: `${event.owner}/${event.repo}`,
      serverUrl: event.serverUrl,
      limits: settings
    },
    now: () => clock.wallNow(),
    // The pause before a write is read back (compare-and-set), on the run's clock; a cancel ends it.
    sleep: ms => clock.sleep(ms, signal),
    ...(signal ? { signal } : {}),
    ...(withoutLedger === undefined ? {} : { withoutLedger }),
    ...(warn ? { warn } : {})
  })
  const session = new LedgerSession(
    dashboard,
    settings.projectId,
    { id: event.runId, url: event.runUrl, attempt: event.runAttempt, step: event.step },
    () => clock.wallNow(),
    settings
  )
  return { dashboard, session }
}

import type { RunEvent } from '../github/event.js'
import { errorText } from '../runner/errors.js'
import { expireStale } from '../agent/ledger/expiry.js'
import type { LedgerSession } from '../agent/ledger/ledger-session.js'
import { refreshOutcomes } from '../agent/ledger/outcomes.js'
import { docsPulls } from '../agent/docs-repository.js'
import type { ChangeSettings } from '../agent/settings.js'
import type { RunDeps } from './change-settings.js'
import { LIVE } from '../records/ledger.js'

/**
 * The ledger's docs pull requests read again, before the gates: `expire-after` closes the stale
 * ones (an expired docs pull request is not folded into), then a few of the last 30 days whose
 * outcome is not known yet are read for the dashboard's outcomes. What was seen is recorded in one
 * write, only when something changed.
 */
export async function refreshDocsPulls(
  session: LedgerSession,
  settings: Pick<ChangeSettings, 'expireAfter' | 'docsToken' | 'dryRun' | 'fold'> & {
    githubToken: string
  },
  event: RunEvent,
  deps: Pick<RunDeps, 'clock' | 'log' | 'signal' | 'session'>
): Promise<void> {
  const after = settings.expireAfter
  const expiry =
    after && settings.docsToken
      ? await expireStale(session.project, {
          afterMs: after.ms,
          afterText: after.text,
          keepLabel: after.keepLabel,
          now: deps.clock.wallNow(),
          docs: docsPulls(settings, event.apiUrl, deps),
          serverUrl: event.serverUrl,
          dashboardUrl: session.url,
          log: deps.log,
          dryRun: settings.dryRun
        })
      : { updates: [], expired: [] }
  // The job the fold decision reads anyway is left to it.
  const foldCandidate =
    settings.fold === 'open-pr'
      ? [...session.project.jobs].reverse().find(j => LIVE.has(j.state))?.id
      : undefined
  const skip = new Set([
    ...expiry.updates.map(u => u.jobId),
    ...(foldCandidate ? [foldCandidate] : [])
  ])
  const reads = await refreshOutcomes(session.project, {
    now: deps.clock.wallNow(),
    docs: docsPulls(settings, event.apiUrl, deps, { orRunToken: true }),
    serverUrl: event.serverUrl,
    log: deps.log,
    skip
  })
  if (settings.dryRun) return
  const { expired } = expiry
  const changed = [...expiry.updates, ...reads.changed]
  // Only read, nothing changed: kept for the run's next write, not written for itself.
  if (!changed.length) return session.noteUpdates(reads.checked)
  try {
    await session.docsPullsSeen(
      [...changed, ...reads.checked],
      expired,
      `closed ${expired.join(', ')}: open longer than 'expire-after: ${after?.text ?? ''}'`
    )
  } catch (error) {
    deps.log.warning(`${errorText(error)} The next run reads the docs pull requests again.`)
  }
}

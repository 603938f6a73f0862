import { type RunEvent, eventPhrase } from '../github/event.js'
import { InputError } from '../runner/errors.js'
import { withBudget } from '../agent/agent-run.js'
import { SubAction, subActionUses } from '../agent/names.js'
import { type FlowDeps, type PreparedRun, skippedRun } from '../agent/prepared-run.js'
import type { Settings } from '../agent/settings.js'
import { isApprovalTick } from './approval.js'
import { isChangeRun, planChange } from './change-plan.js'
import { prepareChangeRun } from './change-run.js'

/**
 * The changes sub-action's run: a merged pull request, a push, a code repository's dispatch or a
 * scheduled or manual catch-up documents the changes since the last documented commit
 * (change-run.ts); an edit of the dashboard may be a tick. A change on its own (no ledger, a pull
 * request not merged yet, another branch) is held back over `max-jobs` too.
 */
export async function prepareChanges(
  settings: Settings,
  event: RunEvent,
  deps: FlowDeps
): Promise<PreparedRun> {
  const tick = isApprovalTick(event, settings)
  if (!tick && !isChangeRun(event)) return notAChange(event)
  const prepared = await prepareChangeRun(settings, event, { ...deps, tick })
  if (tick || planChange(settings, event).kind !== 'own') return prepared
  const pull = event.pullRequest?.number
  const what = pull === undefined ? 'this push' : `pull request #${pull}`
  return withBudget(prepared, settings, event, deps, { what, hold: true })
}

/** Another family's event: a review is refused (a wrong `uses:`); any other is no change. */
function notAChange(event: RunEvent): PreparedRun {
  if (event.name === 'pull_request_review')
    throw new InputError(
      `A pull_request_review event is a review of a docs pull request: sending it to its job is the review sub-action's work. Use \`uses: ${subActionUses(SubAction.Review)}\` in this workflow.`
    )
  return skippedRun(
    `${eventPhrase(event.name)} is not a code change: this sub-action documents merged pull requests, pushes, dispatches and scheduled or manual catch-ups, and takes ticks on the dashboard. Issues and comments are the main action's (\`uses: ${subActionUses()}\`).`
  )
}

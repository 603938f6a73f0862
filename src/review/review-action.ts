import { type RunEvent, eventPhrase } from '../github/event.js'
import { SubAction, subActionUses } from '../agent/names.js'
import { type FlowDeps, type PreparedRun, skippedRun } from '../agent/prepared-run.js'
import type { Settings } from '../agent/settings.js'
import { isReviewEvent, prepareReviewRun } from './review-run.js'

/**
 * The review sub-action's run, in the docs repository: a review of a docs pull request the agent
 * opened, or a trigger-phrase comment on it, goes to its job (review-run.ts). A comment on any
 * other pull request, and any other event, is left alone with a notice.
 */
export async function prepareReview(
  settings: Settings,
  event: RunEvent,
  deps: FlowDeps
): Promise<PreparedRun> {
  if (!isReviewEvent(event))
    return skippedRun(
      `${eventPhrase(event.name)} is not a review or a comment on a pull request: this sub-action sends reviews of docs pull requests to their jobs. Other runs are the main action's (\`uses: ${subActionUses()}\`) or the changes sub-action's (\`uses: ${subActionUses(SubAction.Changes)}\`).`
    )
  const prepared = await prepareReviewRun(settings, event, deps)
  return (
    prepared ??
    skippedRun(
      `#${event.issue?.number ?? '?'} is not a docs pull request the agent opened (no record of this project names its job there): a comment on it is the main action's (\`uses: ${subActionUses()}\`).`
    )
  )
}

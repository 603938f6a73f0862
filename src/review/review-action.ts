import { type RunEvent, eventPhrase } from '../github/event.js'
import { type AgentAction, withCounting } from '../agent/agent-run.js'
import { Input, SubAction, subActionUses } from '../agent/names.js'
import { InputError } from '../runner/errors.js'
import { type FlowDeps, type PreparedRun, skippedRun } from '../agent/prepared-run.js'
import { type Settings, withPolicy } from '../agent/settings.js'
import { ReviewInputs } from './names.js'
import { askedOf, isReviewEvent, prepareReviewRun } from './review-run.js'

export const reviewAction: AgentAction<Settings> = {
  name: 'review',
  defaults: ReviewInputs.defaults,
  refuse: (inputs, event) => {
    if (!isReviewEvent(event)) return { why: notAReview(event) }
    // What the review or comment asks, from the payload and the inputs alone.
    const asked = askedOf(inputs, event)
    if (asked === undefined) return { why: notAFollowUp(event, inputs.triggerPhrase) }
    return 'skipped' in asked ? { why: asked.skipped } : undefined
  },
  checkInputs: inputs => {
    if (!inputs.docsToken)
      throw new InputError(
        `Input '${Input.DocsToken}' is required: a review or comment is sent to the job of the docs pull request, named by a record written with it. Set it to the same secret as the workflow that started the job.`
      )
  },
  settings: withPolicy,
  prepare: prepareReview
}

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
  if (!isReviewEvent(event)) return skippedRun(notAReview(event))
  const prepared = await prepareReviewRun(settings, event, deps)
  if (!prepared)
    return skippedRun(
      `#${event.issue?.number ?? '?'} is not a docs pull request the agent opened (no record of this project names its job there): a comment on it is the main action's (\`uses: ${subActionUses()}\`).`
    )
  // A follow-up spends as a job does: with a budget in this repository's policy (a docs project
  // keeps its dashboard here), it is counted there; a person asked, so it is never held back.
  const what = `a review of #${event.issue?.number ?? '?'}`
  return (await withCounting(prepared, settings, event, deps, { what, hold: false })).prepared
}

/** A comment that is not new, or does not start with the trigger phrase: it asks for nothing. */
function notAFollowUp(event: RunEvent, phrase: string): string {
  return event.action && event.action !== 'created'
    ? `The comment was ${/^[a-z_]{1,40}$/.test(event.action) ? event.action : 'changed'}, not created; only new comments are sent to the agent.`
    : `The comment does not start with '${phrase}'.`
}

const notAReview = (event: RunEvent): string =>
  `${eventPhrase(event.name)} is not a review or a comment on a pull request: this sub-action sends reviews of docs pull requests to their jobs. Other runs are the main action's (\`uses: ${subActionUses()}\`) or the changes sub-action's (\`uses: ${subActionUses(SubAction.Changes)}\`).`

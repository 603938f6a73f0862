import { type RunEvent, eventPhrase } from '../github/event.js'
import { docsPrPlace } from '../records/docs-pr.js'
import { InputError } from '../runner/errors.js'
import { type AgentAction, withCounting } from '../agent/agent-run.js'
import { SubAction, subActionUses } from '../agent/names.js'
import { type FlowDeps, type PreparedRun, skippedRun } from '../agent/prepared-run.js'
import { type Settings, withPolicy } from '../agent/settings.js'
import { recordedDocsJob } from '../agent/trusted-record.js'
import { prepareIssueRun } from './issue-run.js'
import { PromptInputs } from './names.js'
import { checkTriggerInputs, triggerRefusal } from './trigger.js'
import { commandText } from '../agent/command-text.js'

/** Events of another action's trigger family: a merge, a push, a dispatch, a review. */
const CHANGE_EVENTS = new Set([
  'pull_request',
  'pull_request_target',
  'push',
  'repository_dispatch'
])

/**
 * The main action's run: a prompt, an issue labelled with the trigger label, or a trigger-phrase
 * comment becomes a job (issue-run.ts), counted against `max-jobs` on the dashboard. An event that
 * belongs to a sub-action is refused before any request, naming it; a comment on a docs pull
 * request of the agent is the review sub-action's.
 */
export const promptAction: AgentAction<Settings> = {
  name: 'main',
  defaults: PromptInputs.defaults,
  refuse: (inputs, event) => {
    if (inputs.jobId === undefined) refuseOtherFamilies(event)
    const why = triggerRefusal(inputs, event)
    if (why) return { why }
    checkTriggerInputs(inputs, event)
    return undefined
  },
  settings: withPolicy,
  prepare: preparePromptRun
}

export async function preparePromptRun(
  settings: Settings,
  event: RunEvent,
  deps: FlowDeps
): Promise<PreparedRun> {
  const onDocsPr = await docsPrComment(settings, event, deps)
  if (onDocsPr) return skippedRun(onDocsPr)
  const issued = await prepareIssueRun(settings, event, deps)
  // The issue or pull request the prompt was built from: the `source` output.
  const prepared = event.issue?.url
    ? { ...issued, source: issued.source ?? event.issue.url }
    : issued
  const what = event.issue ? `issue #${event.issue.number}` : 'a manual run'
  return (await withCounting(prepared, settings, event, deps, { what, hold: false })).prepared
}

function refuseOtherFamilies(event: RunEvent): void {
  if (CHANGE_EVENTS.has(event.name))
    throw new InputError(
      `${eventPhrase(event.name)} is a code change: documenting merged pull requests, pushes and dispatches is the changes sub-action's work. Use \`uses: ${subActionUses(SubAction.Changes)}\` in this workflow.`
    )
  if (event.name === 'pull_request_review')
    throw new InputError(
      `A pull_request_review event is a review of a docs pull request: sending it to its job is the review sub-action's work. Use \`uses: ${subActionUses(SubAction.Review)}\` in this workflow.`
    )
}

/**
 * A trigger-phrase comment on a docs pull request the agent opened (a record signed for it with
 * this project's key is there): the review sub-action sends it to the pull request's job, so the
 * main action leaves it, saying where it goes. One read of the comments, only for such a comment.
 */
async function docsPrComment(
  settings: Settings,
  event: RunEvent,
  { session }: FlowDeps
): Promise<string | undefined> {
  const pr = event.issue
  if (event.name !== 'issue_comment' || !pr?.isPullRequest || !settings.githubToken)
    return undefined
  if (commandText(event.comment?.body ?? '', settings.triggerPhrase) === undefined) return undefined
  const github = session.repository(settings.githubToken, event)
  const place = docsPrPlace({ owner: event.owner, repo: event.repo, number: pr.number })
  const job = await recordedDocsJob(github, { number: pr.number, place }, settings)
  if (job === undefined) return undefined
  return `#${pr.number} is the docs pull request of job ${job}: comments and reviews on it reach that job through the review sub-action (\`uses: ${subActionUses(SubAction.Review)}\`), not the main action.`
}

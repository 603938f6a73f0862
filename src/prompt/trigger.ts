import { InputError } from '../runner/errors.js'
import { Input, SubAction, subActionUses } from '../agent/names.js'
import type { RunEvent } from '../github/event.js'
import type { TriggerSettings } from '../agent/settings.js'
import { stripInvisible } from '../runner/untrusted.js'
import { commandText } from '../agent/command-text.js'
import { issuePrompt } from './issue-prompt.js'

/** What this run should do, decided from the inputs and the event alone, before any request. */
export interface TriggerPlan {
  /** Why the run does nothing (the step succeeds with a notice). */
  skipped?: string
  /** The prompt for a new job or a follow-up; undefined to just wait for `job-id`. */
  prompt?: string
  /** The issue or pull request to comment on. */
  target?: number
  /** A trigger-phrase comment: it may follow up on the job recorded on the issue. */
  fromComment: boolean
  /** The triggering person's permission must be checked first. */
  gate: boolean
}

const GATED_EVENTS = new Set(['issues', 'issue_comment'])

/** An event's activity as a notice may show it: GitHub's words are lower case with underscores. */
const activity = (action: string | undefined): string =>
  action && /^[a-z_]{1,40}$/.test(action)
    ? `Issue activity '${action}'`
    : 'An issues event without a known activity'

/** A label name as a notice shows it: one line, at most 50 characters (GitHub's own limit). */
const labelText = (name: string): string =>
  `'${stripInvisible(name).replace(/\s+/g, ' ').trim().slice(0, 50)}'`

const sameLabel = (a: string, b: string): boolean =>
  a.trim().toLowerCase() === b.trim().toLowerCase()

/**
 * On an `issues` event only a request starts the agent: the trigger label (`label`, `docs-agent` by
 * default) added (`labeled`), or an issue opened already carrying it (`opened`). Another label
 * added, or any other activity (the label removed, the issue edited, closed, deleted, transferred,
 * pinned…) withdraws or ignores a request.
 * Returns why the run does nothing, or undefined when it goes on. Decided from the payload alone.
 */
export function issueActivityRefusal(
  settings: Pick<TriggerSettings, 'label'>,
  event: RunEvent
): string | undefined {
  if (event.name !== 'issues') return undefined
  const wanted = settings.label
  if (event.action === 'labeled') {
    if (event.label && sameLabel(event.label, wanted)) return undefined
    return event.label
      ? `The label ${labelText(event.label)} was added to the issue; only adding ${labelText(wanted)} ('${Input.Label}') starts the agent.`
      : `This labeled event does not name the label that was added; only adding ${labelText(wanted)} ('${Input.Label}') starts the agent.`
  }
  if (event.action === 'opened') {
    if (event.issue?.labels.some(l => sameLabel(l, wanted))) return undefined
    return `The issue was opened without the label ${labelText(wanted)} ('${Input.Label}'); adding it starts the agent.`
  }
  const only = `only adding the label ${labelText(wanted)} ('labeled') starts the agent.`
  if (event.action === 'unlabeled' && event.label)
    return `The label ${labelText(event.label)} was removed from the issue ('unlabeled'): that is not a request; ${only}`
  return `${activity(event.action)} is not a request; ${only}`
}

/**
 * Why the event asks nothing, from the inputs and the payload alone (before any request, before
 * the policy file is read): an issue activity that is not the trigger label, a comment that is not
 * new or does not start with the trigger phrase.
 */
export function triggerRefusal(
  settings: Pick<TriggerSettings, 'label' | 'triggerPhrase'>,
  event: RunEvent
): string | undefined {
  const refused = issueActivityRefusal(settings, event)
  if (refused) return refused
  if (event.name !== 'issue_comment') return undefined
  if (event.action && event.action !== 'created')
    return `The comment was ${/^[a-z_]{1,40}$/.test(event.action) ? event.action : 'changed'}, not created; only new comments start the agent.`
  if (commandText(event.comment?.body ?? '', settings.triggerPhrase) === undefined)
    return `The comment does not start with '${settings.triggerPhrase}'.`
  return undefined
}

/** The policy file's standing instruction, then the workflow's: what is sent before a request. */
const standingOf = (
  settings: Pick<TriggerSettings, 'instructions' | 'prompt'>
): string | undefined =>
  [settings.instructions, settings.prompt].filter(Boolean).join('\n\n') || undefined

/**
 * What the inputs and the event must say for a run to have a request and a place to report it:
 * an instruction (the prompt, an issue, or a job to wait for), and an issue when the comment is a
 * must. Checked before any request.
 */
export function checkTriggerInputs(
  settings: Pick<TriggerSettings, 'prompt' | 'jobId' | 'comment' | 'issueNumber'>,
  event: RunEvent
): void {
  const request =
    settings.prompt !== undefined ||
    settings.jobId !== undefined ||
    (event.issue !== undefined && ['issues', 'issue_comment'].includes(event.name))
  if (!request) {
    throw new InputError(
      `Give the agent an instruction: set '${Input.Prompt}' or '${Input.PromptFile}', run it from an issue, or set '${Input.JobId}' to wait for an existing job. To document what merged since the last run, use the changes sub-action (\`uses: ${subActionUses(SubAction.Changes)}\`).`
    )
  }
  const available = settings.issueNumber ?? event.issue?.number
  if (settings.comment === 'true' && available === undefined) {
    throw new InputError(
      `Input '${Input.Comment}' is 'true' but this ${event.name || 'run'} event has no issue or pull request: set '${Input.IssueNumber}'.`
    )
  }
}

export function planTrigger(settings: TriggerSettings, event: RunEvent): TriggerPlan {
  const repository = `${event.owner}/${event.repo}`
  const gate = GATED_EVENTS.has(event.name)
  const refused = triggerRefusal(settings, event)
  if (refused) return { skipped: refused, fromComment: false, gate }
  // A prompt of the workflow's own (a schedule, a manual run) goes after the policy's instructions.
  let prompt =
    settings.prompt !== undefined && settings.instructions
      ? `${settings.instructions}\n\n${settings.prompt}`
      : settings.prompt
  let fromComment = false
  if (event.name === 'issue_comment') {
    const instruction = commandText(event.comment?.body ?? '', settings.triggerPhrase) ?? ''
    fromComment = true
    // The inputs are the standing instruction; the comment and the issue are the request.
    if (event.issue)
      prompt = issuePrompt(event.issue, repository, {
        standing: standingOf(settings),
        instruction: instruction || undefined
      })
  } else if (event.name === 'issues' && event.issue) {
    prompt = issuePrompt(event.issue, repository, { standing: standingOf(settings) })
  }
  checkTriggerInputs(settings, event)
  const available = settings.issueNumber ?? event.issue?.number
  const target = settings.comment === 'false' ? undefined : available
  if (
    (target !== undefined || (gate && settings.requiredPermission !== 'none')) &&
    !settings.githubToken
  ) {
    throw new InputError(
      `Input '${Input.GithubToken}' is empty: it is needed to ${target !== undefined ? 'comment on the issue' : "check the triggering person's permission"}. Leave it at its default (\${{ github.token }}) or set '${Input.Comment}: false'.`
    )
  }
  return { prompt, target, fromComment, gate }
}

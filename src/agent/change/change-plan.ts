import type { PullRequestRef, PushRef, RunEvent } from '../../github/event.js'
import { ExplainedError } from '../../runner/errors.js'
import type { PlanSettings } from '../settings.js'

/**
 * What a change run is about, decided from the event and the inputs alone, before any request:
 *
 * - `range`: the default branch moved (a push, a merged pull request): everything from the ledger's
 *   last documented commit up to `head` is documented together;
 * - `since-last`: a scheduled or manual run catches up to the branch's head, whatever it is then;
 * - `own`: one change on its own, outside the ledger: a pull request not merged yet (its author's
 *   permission is checked first), one merged into another branch, a push to another branch, or any
 *   change with `dashboard: false`;
 * - `skip`: nothing to document, and why.
 */
export type ChangePlan =
  | { kind: 'skip'; why: string; source?: string }
  | {
      kind: 'range'
      head: string
      branch: string
      /** The event's own pull request (a merged one). */
      pull?: PullRequestRef
      push?: PushRef
      source?: string
    }
  | { kind: 'since-last' }
  | {
      kind: 'own'
      /** A pull request: gated when not merged. */
      pull?: PullRequestRef
      push?: PushRef
      gate: boolean
      source?: string
    }

const CHANGE_EVENTS = new Set(['pull_request', 'pull_request_target', 'push'])

/** Runs about code changes: pushes, pull requests, and scheduled or manual catch-ups. */
export function isChangeRun(
  event: Pick<RunEvent, 'name'>,
  settings: PlanSettings & { jobId?: string }
): boolean {
  if (settings.jobId !== undefined) return false
  if (CHANGE_EVENTS.has(event.name)) return true
  return settings.changes === 'since-last' && settings.prompt === undefined
}

export function planChange(settings: PlanSettings, event: RunEvent): ChangePlan {
  if (!CHANGE_EVENTS.has(event.name)) return { kind: 'since-last' }
  if (event.name === 'push') return planPush(settings, event)
  const pull = event.pullRequest
  if (!pull)
    throw new ExplainedError(
      `This ${event.name} event has no pull_request in its payload, so there is no change to describe. Run the action on ${event.name} events as GitHub sends them (a hand-made or re-sent payload must include pull_request).`
    )
  const source = pull.url || undefined
  if (event.action === 'closed' && !pull.merged)
    return {
      kind: 'skip',
      why: `Pull request #${pull.number} was closed without being merged: there is no change to document.`,
      source
    }
  if (!pull.merged) {
    const asked = OPEN_REQUESTS.has(event.action ?? '') || isTriggerLabel(settings, event)
    if (!asked)
      return {
        kind: 'skip',
        why: `Pull request #${pull.number} was ${activity(event.action)}: that asks for no docs (only merging, or opening, updating or the trigger label on an open pull request, does).`,
        source
      }
    // Anyone can open a pull request; merging one takes write access, so only unmerged ones are gated.
    return { kind: 'own', pull, gate: true, source }
  }
  const onDefault = pull.base !== '' && pull.base === event.defaultBranch
  if (settings.dashboard && onDefault && pull.mergeCommit)
    return { kind: 'range', head: pull.mergeCommit, branch: pull.base, pull, source }
  return { kind: 'own', pull, gate: false, source }
}

/** Activity on a pull request not merged yet that asks for its docs: it appeared or changed. */
const OPEN_REQUESTS = new Set(['opened', 'reopened', 'synchronize', 'ready_for_review'])

function isTriggerLabel(settings: PlanSettings, event: RunEvent): boolean {
  const label = settings.label?.toLowerCase()
  return event.action === 'labeled' && Boolean(label) && event.label?.toLowerCase() === label
}

const activity = (action: string | undefined): string =>
  action ? `${action.replace(/_/g, ' ').slice(0, 40)}` : 'sent without an activity'

function planPush(settings: PlanSettings, event: RunEvent): ChangePlan {
  const push = event.push
  if (!push)
    throw new ExplainedError(
      "This push event's payload has no 'before' and 'after' commit ids, so there is no change to describe. Run the action on push events as GitHub sends them."
    )
  const source = push.compareUrl
  if (push.ref.startsWith('refs/tags/'))
    return {
      kind: 'skip',
      why: `The push is of the tag ${push.ref.slice('refs/tags/'.length)}, not of a branch: tags are not documented.`,
      source
    }
  if (!push.ref.startsWith('refs/heads/'))
    return { kind: 'skip', why: `The push is of ${push.ref || 'an unknown ref'}, not of a branch.` }
  const branch = push.ref.slice('refs/heads/'.length)
  if (push.deleted)
    return {
      kind: 'skip',
      why: `The push deleted ${branch}: there is nothing to document.`,
      source
    }
  if (push.noCommits)
    return {
      kind: 'skip',
      why: `The push to ${branch} holds no new commit (the branch was ${push.created ? 'created at a commit it shares' : 'moved to a commit it already had'}): there is nothing to document.`,
      source
    }
  if (settings.dashboard && branch === event.defaultBranch)
    return { kind: 'range', head: push.after, branch, push, source }
  return { kind: 'own', push, gate: false, source }
}

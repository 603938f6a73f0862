import type { PullRequestRef, PushRef, RunEvent } from '../github/event.js'
import { ExplainedError } from '../runner/errors.js'
import { type PlanSettings, DISPATCH_TYPE } from '../agent/settings.js'
import { repositoryKey } from '../policy/code-repositories.js'

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
      /** `code-repositories`: every listed repository's merges since its watermark. */
      kind: 'project'
      /** The repository and commit a dispatch named: a hint, the run reads them all. */
      hint?: { repository: string; sha?: string }
    }
  | {
      kind: 'own'
      /** A pull request: gated when not merged. */
      pull?: PullRequestRef
      push?: PushRef
      gate: boolean
      source?: string
    }

const CHANGE_EVENTS = new Set(['pull_request', 'pull_request_target', 'push'])

/**
 * What the changes sub-action runs on: pull requests and pushes, a code repository's dispatch, and
 * a scheduled or manual run, which catches up to the default branch's head.
 */
const RUN_EVENTS = new Set([
  ...CHANGE_EVENTS,
  'repository_dispatch',
  'schedule',
  'workflow_dispatch'
])

/** Runs about code changes: pushes, pull requests, dispatches, and scheduled or manual catch-ups. */
export const isChangeRun = (event: Pick<RunEvent, 'name'>): boolean => RUN_EVENTS.has(event.name)

export function planChange(settings: PlanSettings, event: RunEvent): ChangePlan {
  if (settings.codeRepositories?.length) return planProject(settings.codeRepositories, event)
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

/**
 * In a docs repository with `code-repositories`: a dispatch from a listed repository, a schedule
 * or a manual run catch up on every repository. The docs repository's own pull requests and
 * pushes are the docs, never documented; a dispatch of another type, or naming a repository not
 * listed, is ignored (anyone who can write here can send one).
 */
function planProject(
  repositories: NonNullable<PlanSettings['codeRepositories']>,
  event: RunEvent
): ChangePlan {
  if (CHANGE_EVENTS.has(event.name))
    return {
      kind: 'skip',
      why: `With 'code-repositories', this workflow documents the code repositories it lists; the docs repository's own ${event.name === 'push' ? 'pushes' : 'pull requests'} are the docs, never documented. Run it on repository_dispatch (types: [${DISPATCH_TYPE}]) and a schedule instead.`
    }
  const dispatch = event.dispatch
  if (event.name !== 'repository_dispatch' || !dispatch) return { kind: 'project' }
  if (dispatch.type !== DISPATCH_TYPE)
    return {
      kind: 'skip',
      why: `Ignored a repository_dispatch of type '${safeWord(dispatch.type)}': the docs agent takes type '${DISPATCH_TYPE}'.`
    }
  if (dispatch.malformed)
    return {
      kind: 'skip',
      why: `Ignored a repository_dispatch whose client_payload.repository is not owner/repo: nothing was read.`
    }
  if (!dispatch.repository) return { kind: 'project' }
  const named = repositoryKey(dispatch.repository)
  const listed = repositories.find(r => repositoryKey(r.name) === named)
  if (!listed)
    return {
      kind: 'skip',
      why: `Ignored a repository_dispatch from ${dispatch.repository}: it is not one of 'code-repositories' (${repositories.map(r => r.name).join(', ')}). Add it there to document it.`
    }
  return {
    kind: 'project',
    hint: { repository: listed.name, ...(dispatch.sha ? { sha: dispatch.sha } : {}) }
  }
}

/** An untrusted word for a message: letters, digits and a few marks, shortened. */
const safeWord = (text: string): string => text.replace(/[^A-Za-z0-9_.-]/g, '?').slice(0, 40)

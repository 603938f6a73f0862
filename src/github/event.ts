import { readFileSync } from 'node:fs'

/** The issue or pull request a run talks to. */
export interface IssueRef {
  number: number
  title: string
  body: string
  url: string
  isPullRequest: boolean
  /** The labels it carries, as the payload lists them (names only; at most 50). */
  labels: string[]
}

/** What the run knows of its trigger, read from the runner's environment and event file (no requests). */
export interface RunEvent {
  name: string
  /** The event's `action`, e.g. `labeled` or `created`: whatever text the payload holds. */
  action?: string
  /** On `labeled` and `unlabeled` events: the name of the label added or removed. */
  label?: string
  owner: string
  repo: string
  /** The REST API's base URL: GitHub Enterprise Server sets its own. */
  apiUrl: string
  /** Who caused the run: the labeller, the commenter, the dispatcher. */
  actor: string
  actorIsBot: boolean
  issue?: IssueRef
  /** On issue_comment events. */
  comment?: { id: number; body: string }
  /** On pull_request and pull_request_target events: the pull request, when the payload has one. */
  pullRequest?: PullRequestRef
  /** On push events. */
  push?: PushRef
  runId: string
  runAttempt: number
  runUrl: string
  /** The web address of the run's GitHub (GITHUB_SERVER_URL). */
  serverUrl: string
  /** On pull_request_review events: the review, when the payload has one. */
  review?: ReviewRef
  /**
   * On `edited` events whose payload says what changed (`changes`): the body before this edit, or
   * undefined when the edit left the body alone (a title edited). Untrusted text.
   */
  edit?: { bodyBefore?: string }
  /** The repository's default branch, when the payload names it. */
  defaultBranch?: string
  /** On repository_dispatch events: the event type and what the sender says changed (a hint). */
  dispatch?: DispatchRef
  /** The workflow job and step running the action (GITHUB_JOB/GITHUB_ACTION): a matrix leg or a second step is another. */
  step: string
}

/** The event file as documented; every field is checked before use, since any may be missing or of another type. */
interface Payload {
  action?: unknown
  label?: unknown
  repository?: { default_branch?: unknown }
  sender?: { login?: unknown; type?: unknown }
  issue?: {
    number?: unknown
    title?: unknown
    body?: unknown
    html_url?: unknown
    pull_request?: unknown
    labels?: unknown
  }
  pull_request?: {
    number?: unknown
    title?: unknown
    body?: unknown
    html_url?: unknown
    labels?: unknown
  }
  comment?: { id?: unknown; body?: unknown }
  review?: unknown
  changes?: unknown
  client_payload?: unknown
}

export function readRunEvent(env: NodeJS.ProcessEnv = process.env): RunEvent {
  let payload: Payload = {}
  if (env.GITHUB_EVENT_PATH) {
    try {
      const parsed: unknown = JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, 'utf8'))
      if (parsed && typeof parsed === 'object') payload = parsed as Payload
    } catch {
      // A local run without an event file: nothing to talk to.
    }
  }
  const [owner = '', repo = ''] = (env.GITHUB_REPOSITORY ?? '').split('/')
  const source = record(payload.issue) ?? record(payload.pull_request)
  const issue: IssueRef | undefined =
    source && typeof source.number === 'number'
      ? {
          number: source.number,
          title: text(source.title),
          body: text(source.body),
          url: text(source.html_url),
          isPullRequest: Boolean(
            record(payload.pull_request) || record(payload.issue)?.pull_request
          ),
          labels: labelNames(source.labels)
        }
      : undefined
  const sender = record(payload.sender)
  const actor = text(sender?.login) || (env.GITHUB_ACTOR ?? '')
  const runId = env.GITHUB_RUN_ID ?? ''
  const server = (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, '')
  const name = env.GITHUB_EVENT_NAME ?? ''
  return {
    name,
    action: typeof payload.action === 'string' ? payload.action : undefined,
    label: text(record(payload.label)?.name) || undefined,
    owner,
    repo,
    apiUrl: env.GITHUB_API_URL || 'https://api.github.com',
    actor,
    actorIsBot: isBot(actor, sender?.type),
    issue,
    comment: commentOf(record(payload.comment)),
    pullRequest: parsePullRequest(payload.pull_request),
    push: name === 'push' ? parsePush(payload) : undefined,
    runId,
    runAttempt: Number(env.GITHUB_RUN_ATTEMPT ?? '1') || 1,
    runUrl: owner && runId ? `${server}/${owner}/${repo}/actions/runs/${runId}` : '',
    serverUrl: server,
    defaultBranch: text(payload.repository?.default_branch) || undefined,
    step: `${env.GITHUB_JOB ?? ''}/${env.GITHUB_ACTION ?? ''}`,
    review: reviewOf(record(payload.review)),
    dispatch: name === 'repository_dispatch' ? dispatchOf(payload) : undefined,
    edit: editOf(payload.action, record(payload.changes))
  }
}

/** What an `edited` payload says changed: the body's text before the edit, when the body changed. */
function editOf(
  action: unknown,
  changes: Record<string, unknown> | undefined
): RunEvent['edit'] | undefined {
  if (action !== 'edited' || !changes) return undefined
  const from = record(changes.body)?.from
  return typeof from === 'string' ? { bodyBefore: from } : {}
}

/** A payload's text field, or empty: the event file is not trusted to have the documented types. */
const text = (value: unknown): string => (typeof value === 'string' ? value : '')

/** A payload's object field, or undefined when it is missing or not an object. */
const record = (value: unknown): Record<string, unknown> | undefined =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined

const commentOf = (
  comment: Record<string, unknown> | undefined
): RunEvent['comment'] | undefined =>
  comment && typeof comment.id === 'number'
    ? { id: comment.id, body: text(comment.body) }
    : undefined

/** Label names from a payload's `labels`: objects with a `name` (or plain names); others ignored. */
function labelNames(value: unknown): string[] {
  if (!Array.isArray(value)) return []
  return value
    .map(l => (typeof l === 'string' ? l : text(record(l)?.name)))
    .filter(Boolean)
    .slice(0, MAX_LABELS)
}

/** A bot's login ends in `[bot]` (in any case), or GitHub says its type is Bot. */
/** An event as a message names it: "An issues event", "A push event"; a name out of shape, "This event". */
export function eventPhrase(name: string): string {
  if (!/^[a-z_]{1,40}$/.test(name)) return 'This event'
  return `${/^[aeiou]/.test(name) ? 'An' : 'A'} ${name} event`
}

export function isBot(login: string, type: unknown): boolean {
  return type === 'Bot' || login.toLowerCase().endsWith('[bot]')
}

/** A bot login as `allowed-bots` lists it: lower case, without `[bot]`. */
export const botName = (login: string): string =>
  login
    .trim()
    .toLowerCase()
    .replace(/\[bot\]$/, '')

/** A pull request as the event payload (or the API) describes it; every field checked, text untrusted. */
export interface PullRequestRef {
  number: number
  title: string
  body: string
  url: string
  author: string
  authorIsBot: boolean
  /** The branch it was merged into (or targets). */
  base: string
  labels: string[]
  merged: boolean
  /** The commit that merged it, once merged. */
  mergeCommit?: string
  /** open or closed. */
  state: string
  /** Opened as a draft and not marked ready for review yet. */
  draft?: boolean
  /** Totals from the payload, when it gives them: they say how much a capped file list leaves out. */
  changedFiles?: number
  additions?: number
  deletions?: number
  /** When it was opened, merged or closed (epoch ms), when GitHub says. */
  createdAt?: number
  mergedAt?: number
  closedAt?: number
}

/** owner, repo and number of a pull request link on the run's GitHub, or undefined. */
export function parsePullLink(
  link: string,
  serverUrl: string
): { owner: string; repo: string; number: number } | undefined {
  let url: URL
  let server: URL
  try {
    url = new URL(link)
    server = new URL(serverUrl)
  } catch {
    return undefined
  }
  if (url.host.toLowerCase() !== server.host.toLowerCase()) return undefined
  const m = /^\/([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)\/pull\/(\d{1,10})\/?$/.exec(url.pathname)
  if (!m) return undefined
  return { owner: m[1] as string, repo: m[2] as string, number: Number(m[3]) }
}

/** A push as the event payload describes it. */
export interface PushRef {
  before: string
  after: string
  /** e.g. refs/heads/main */
  ref: string
  /** The payload's comparison link (`compare`), when it has one. */
  compareUrl?: string
  /** A new branch: `before` is all zeros, so there is no range; the head commit is the change. */
  created: boolean
  /** The push deleted the branch: nothing to describe. */
  deleted: boolean
  /** A force-push: history may have been rewritten. */
  forced: boolean
  /** The payload's list of pushed commits was empty: the branch moved to a commit it had (moved back). */
  noCommits: boolean
  /** Who pushed, and whether that is a bot (merges through a pull request are judged by its author). */
  pusher: string
  pusherIsBot: boolean
}

const SHA = /^[0-9a-f]{40}$/i
const ZERO = /^0{40}$/
const MAX_LABELS = 50

const count = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined

/** A pull request object from a payload or the REST API, or undefined when it lacks a number. */
export function parsePullRequest(value: unknown): PullRequestRef | undefined {
  if (!value || typeof value !== 'object') return undefined
  const pr = value as Record<string, unknown>
  if (typeof pr.number !== 'number' || !Number.isInteger(pr.number) || pr.number < 1)
    return undefined
  const user = (pr.user ?? {}) as Record<string, unknown>
  const author = text(user.login)
  const labels = labelNames(pr.labels)
  return {
    number: pr.number,
    title: text(pr.title),
    body: text(pr.body),
    url: text(pr.html_url),
    author,
    authorIsBot: isBot(author, user.type),
    base: text((pr.base as { ref?: unknown } | undefined)?.ref),
    labels,
    merged: pr.merged === true || (typeof pr.merged_at === 'string' && pr.merged_at !== ''),
    mergeCommit: SHA.test(text(pr.merge_commit_sha)) ? text(pr.merge_commit_sha) : undefined,
    state: text(pr.state),
    ...(pr.draft === true ? { draft: true } : {}),
    changedFiles: count(pr.changed_files),
    additions: count(pr.additions),
    deletions: count(pr.deletions),
    createdAt: time(pr.created_at),
    mergedAt: time(pr.merged_at),
    closedAt: time(pr.closed_at)
  }
}

/** An ISO timestamp as epoch ms, or undefined. */
function time(value: unknown): number | undefined {
  if (typeof value !== 'string' || value === '') return undefined
  const ms = Date.parse(value)
  return Number.isFinite(ms) ? ms : undefined
}

/** The push from its payload, or undefined when `before` and `after` are not commit ids. */
export function parsePush(value: unknown): PushRef | undefined {
  if (!value || typeof value !== 'object') return undefined
  const p = value as Record<string, unknown>
  const before = text(p.before)
  const after = text(p.after)
  if (!SHA.test(before) || !SHA.test(after)) return undefined
  const sender = (p.sender ?? {}) as Record<string, unknown>
  const pusher = text(sender.login) || text((p.pusher as { name?: unknown } | undefined)?.name)
  const compare = text(p.compare)
  return {
    before,
    after,
    ref: text(p.ref),
    compareUrl: /^https?:\/\//.test(compare) ? compare : undefined,
    created: ZERO.test(before),
    deleted: ZERO.test(after),
    forced: p.forced === true,
    noCommits: Array.isArray(p.commits) && p.commits.length === 0,
    pusher,
    pusherIsBot: isBot(pusher, sender.type)
  }
}

/** A pull request review as its event's payload describes it; its text is untrusted. */
export interface ReviewRef {
  id: number
  body: string
  /** commented, approved, changes_requested (lower case, as the payload gives it). */
  state: string
}

const reviewOf = (review: Record<string, unknown> | undefined): ReviewRef | undefined =>
  review && typeof review.id === 'number' && Number.isSafeInteger(review.id) && review.id > 0
    ? { id: review.id, body: text(review.body), state: text(review.state).toLowerCase() }
    : undefined

/**
 * A repository_dispatch as its payload describes it: the event type (the payload's `action`) and,
 * in `client_payload`, the code repository (`owner/repo`) and commit the sender says changed. Anyone
 * who can write to the repository can send one, so it is a hint, never trusted: the repository is
 * kept only in the shape of a GitHub name, the commit only as a full commit id.
 */
export interface DispatchRef {
  type: string
  /** `owner/repo`, when the payload names one in that shape. */
  repository?: string
  sha?: string
  /** The payload named something as its repository that is not `owner/repo`. */
  malformed: boolean
}

const REPOSITORY_NAME = /^[A-Za-z0-9-]{1,39}\/[A-Za-z0-9_.-]{1,100}$/

function dispatchOf(payload: Payload): DispatchRef {
  const client = record(payload.client_payload) ?? {}
  const named = text(client.repository).trim()
  const sha = text(client.sha).trim()
  return {
    type: text(payload.action).slice(0, 100),
    ...(REPOSITORY_NAME.test(named) ? { repository: named } : {}),
    ...(SHA.test(sha) ? { sha: sha.toLowerCase() } : {}),
    malformed: named !== '' && !REPOSITORY_NAME.test(named)
  }
}

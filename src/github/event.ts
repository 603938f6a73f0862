import { readFileSync } from 'node:fs'

/** The issue or pull request a run talks to. */
export interface IssueRef {
  number: number
  title: string
  body: string
  url: string
  isPullRequest: boolean
}

/** What the run knows of its trigger, read from the runner's environment and event file (no requests). */
export interface RunEvent {
  name: string
  /** The event's `action`, e.g. `labeled` or `created`. */
  action?: string
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
}

interface Payload {
  action?: string
  sender?: { login?: string; type?: string }
  issue?: {
    number?: number
    title?: string
    body?: string | null
    html_url?: string
    pull_request?: unknown
  }
  pull_request?: { number?: number; title?: string; body?: string | null; html_url?: string }
  comment?: { id?: number; body?: string }
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
  const source = payload.issue ?? payload.pull_request
  const issue: IssueRef | undefined =
    source && typeof source.number === 'number'
      ? {
          number: source.number,
          title: text(source.title),
          body: text(source.body),
          url: text(source.html_url),
          isPullRequest: Boolean(
            payload.pull_request || (payload.issue && payload.issue.pull_request)
          )
        }
      : undefined
  const actor = text(payload.sender?.login) || (env.GITHUB_ACTOR ?? '')
  const runId = env.GITHUB_RUN_ID ?? ''
  const server = (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, '')
  const name = env.GITHUB_EVENT_NAME ?? ''
  return {
    name,
    action: payload.action,
    owner,
    repo,
    apiUrl: env.GITHUB_API_URL || 'https://api.github.com',
    actor,
    actorIsBot: isBot(actor, payload.sender?.type),
    issue,
    comment:
      payload.comment && typeof payload.comment.id === 'number'
        ? { id: payload.comment.id, body: text(payload.comment.body) }
        : undefined,
    pullRequest: parsePullRequest(payload.pull_request),
    push: name === 'push' ? parsePush(payload) : undefined,
    runId,
    runAttempt: Number(env.GITHUB_RUN_ATTEMPT ?? '1') || 1,
    runUrl: owner && runId ? `${server}/${owner}/${repo}/actions/runs/${runId}` : '',
    serverUrl: server
  }
}

/** A payload's text field, or empty: the event file is not trusted to have the documented types. */
const text = (value: unknown): string => (typeof value === 'string' ? value : '')

/** A bot's login ends in `[bot]` (in any case), or GitHub says its type is Bot. */
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
  /** open or closed. */
  state: string
  /** Totals from the payload, when it gives them: they say how much a capped file list leaves out. */
  changedFiles?: number
  additions?: number
  deletions?: number
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
  const labels = Array.isArray(pr.labels)
    ? pr.labels
        .map(l => (l && typeof l === 'object' ? text((l as { name?: unknown }).name) : text(l)))
        .filter(Boolean)
        .slice(0, MAX_LABELS)
    : []
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
    state: text(pr.state),
    changedFiles: count(pr.changed_files),
    additions: count(pr.additions),
    deletions: count(pr.deletions)
  }
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
    pusher,
    pusherIsBot: isBot(pusher, sender.type)
  }
}

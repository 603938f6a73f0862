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

/** A bot's login ends in `[bot]`, or the API says its type is Bot. */
function isBot(login: string, type: unknown): boolean {
  return type === 'Bot' || login.toLowerCase().endsWith('[bot]')
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '')
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

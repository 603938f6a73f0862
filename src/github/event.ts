import { readFileSync } from 'node:fs'
import { type PullRequestRef, type PushRef, parsePullRequest, parsePush } from './change-event.js'

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
    actorIsBot: payload.sender?.type === 'Bot' || actor.endsWith('[bot]'),
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

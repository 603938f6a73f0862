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
  runId: string
  runAttempt: number
  runUrl: string
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
      payload = JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, 'utf8')) as Payload
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
          title: source.title ?? '',
          body: source.body ?? '',
          url: source.html_url ?? '',
          isPullRequest: Boolean(
            payload.pull_request || (payload.issue && payload.issue.pull_request)
          )
        }
      : undefined
  const actor = payload.sender?.login ?? env.GITHUB_ACTOR ?? ''
  const runId = env.GITHUB_RUN_ID ?? ''
  const server = env.GITHUB_SERVER_URL ?? 'https://github.com'
  return {
    name: env.GITHUB_EVENT_NAME ?? '',
    action: payload.action,
    owner,
    repo,
    apiUrl: env.GITHUB_API_URL || 'https://api.github.com',
    actor,
    actorIsBot: payload.sender?.type === 'Bot' || actor.endsWith('[bot]'),
    issue,
    comment:
      payload.comment && typeof payload.comment.id === 'number'
        ? { id: payload.comment.id, body: payload.comment.body ?? '' }
        : undefined,
    runId,
    runAttempt: Number(env.GITHUB_RUN_ATTEMPT ?? '1') || 1,
    runUrl: owner && runId ? `${server}/${owner}/${repo}/actions/runs/${runId}` : ''
  }
}

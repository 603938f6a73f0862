import type { Clock } from '../../runner/clock.js'
import { type Logger } from '../../runner/logger.js'
import { ExplainedError, InputError } from '../../runner/errors.js'
import { Input } from '../names.js'
import type { AgentJob } from '../../mintlify/agent-jobs.js'
import { type GitHubSession, connectGitHub } from '../../github/api.js'
import { bytes } from '../../runner/text.js'
import { changePrompt } from './change-prompt.js'
import { type Change, findPushPull, readPullChange, readPushChange } from './read-change.js'
import type { PullRequestRef, PushRef, RunEvent } from '../../github/event.js'
import { type FoldDecision, type FoldTarget, decideFold } from './fold.js'
import { botAllowed, trustRefusal } from '../trust-gate.js'
import type { IssueRun } from '../issue/issue-run.js'
import { type CommentState, LiveComment } from '../comment/live-comment.js'
import type { Markers } from '../comment/marker.js'
import type { TriggerSettings } from '../issue/trigger.js'

export const FOLD_MODES = ['open-pr', 'never'] as const
export type FoldMode = (typeof FOLD_MODES)[number]

/** The inputs that shape a run from a code change. */
export interface ChangeSettings {
  /** open-pr: send the change to the job whose docs pull request is still open; never: a new job each time. */
  fold: FoldMode
  /** Pull requests with this label are skipped. */
  skipLabel: string
  /** Add an excerpt of the patches to the prompt. */
  includeDiff: boolean
  /** Reads the docs pull request's state when github-token cannot (a private docs repository); masked. */
  docsToken: string
}

/** What a run prepares before the job: for a change, also its source and where it is folded. */
export interface PreparedRun extends IssueRun {
  /** The pull request or comparison the prompt was built from. */
  source?: string
  /** The earlier job this change is sent to, instead of a new one. */
  fold?: FoldTarget
  /** Things the user should see as notices (why a change did not join the open docs pull request). */
  notices: string[]
}

export interface RunDeps {
  log: Logger
  /** Paces GitHub's retries: the runner's clock. */
  clock: Clock
  /** The run's GitHub connections, closed when it ends. */
  session?: GitHubSession
  saveState: (state: CommentState) => void
  signal?: AbortSignal
  /** Reads a job on the service: is an earlier change's job still running? */
  readJob: (jobId: string) => Promise<AgentJob>
  /** Signs the markers this run writes and reads only those signed. */
  markers: Markers
}

const CHANGE_EVENTS = new Set(['pull_request', 'pull_request_target', 'push'])

/** Runs from code changes: merged pull requests and pushes. `job-id` keeps its own meaning. */
export function isChangeRun(event: RunEvent, settings: Pick<TriggerSettings, 'jobId'>): boolean {
  return CHANGE_EVENTS.has(event.name) && settings.jobId === undefined
}

type Settings = TriggerSettings & ChangeSettings & { projectId: string }

/**
 * A code change becomes a prompt (the change described and capped), a comment on its pull request,
 * and a new job or a follow-up to the job whose docs pull request is still open.
 */
export async function prepareChangeRun(
  settings: Settings,
  event: RunEvent,
  deps: RunDeps
): Promise<PreparedRun> {
  const { log, signal } = deps
  const plan = planChange(settings, event)
  const skip = (skipped: string, source = plan.source): PreparedRun => ({
    skipped,
    source,
    request: {},
    followUp: false,
    notices: []
  })
  if ('skipped' in plan) return skip(plan.skipped)
  if (!settings.githubToken) {
    throw new InputError(
      `Input '${Input.GithubToken}' is empty: it is needed to read the ${event.name} change (files, commits). Leave it at its default (\${{ github.token }}).`
    )
  }
  const github = connectGitHub(settings.githubToken, event, signal, {
    clock: deps.clock,
    session: deps.session
  })
  const repository = `${event.owner}/${event.repo}`
  let change: Change
  if (plan.push) {
    const pull = await findPushPull(github, plan.push, log)
    const why = pull ? pullRefusal(pull, settings) : pusherRefusal(plan.push, settings)
    if (why) return skip(why, pull?.url ?? plan.push.compareUrl)
    change = await readPushChange(github, repository, plan.push, pull, settings.includeDiff)
  } else {
    const why = plan.gate
      ? await trustRefusal(async () => github, event, settings, signal)
      : undefined
    if (why) return skip(why)
    change = await readPullChange(github, repository, plan.pull, settings.includeDiff)
  }
  const target =
    settings.comment === 'false' ? undefined : (settings.issueNumber ?? change.pull?.number)
  if (settings.comment === 'true' && target === undefined)
    log.warning('No pull request to comment on: the pushed commit belongs to none.')

  // Without folding and without a comment, there is no marker to find, not even a re-run's own.
  const lookup = settings.fold === 'open-pr' || target !== undefined
  const decision: FoldDecision = !lookup
    ? {}
    : await decideFold({
        github,
        docsGitHub: (owner, repo) =>
          connectGitHub(
            settings.docsToken || settings.githubToken,
            { owner, repo, apiUrl: event.apiUrl },
            signal,
            { clock: deps.clock, session: deps.session }
          ),
        readJob: deps.readJob,
        projectId: settings.projectId,
        runId: event.runId,
        runAttempt: event.runAttempt,
        serverUrl: event.serverUrl,
        fold: settings.fold === 'open-pr',
        markers: deps.markers
      })
  if (decision.info) log.info(decision.info)
  const options = { instruction: settings.prompt, includeDiff: settings.includeDiff }
  const prompt = changePrompt(change, { ...options, followUp: false })
  log.info(
    `Described the change from ${change.url || repository}: ${change.files.length} of ${change.totalFiles} files, ${Math.round(bytes(prompt) / 100) / 10} KB of prompt.`
  )
  const comment =
    target === undefined
      ? undefined
      : new LiveComment(
          github,
          target,
          {
            run: event.runId,
            attempt: event.runAttempt,
            kind: 'change',
            project: settings.projectId
          },
          { runUrl: event.runUrl, projectId: settings.projectId },
          log,
          deps.saveState,
          deps.markers,
          decision.target ? { docsPr: decision.target.docsPr } : undefined
        )
  const prepared = {
    source: change.url,
    comment,
    notices: decision.notice ? [decision.notice] : []
  }
  if (decision.resume) {
    const { marker, commentId, issue } = decision.resume
    if (issue === target) comment?.adopt(commentId)
    log.info(
      `Attempt ${event.runAttempt} of this run resumes job ${marker.job}, started by attempt ${marker.attempt}.`
    )
    return { ...prepared, request: { jobId: marker.job }, followUp: false }
  }
  if (decision.target) {
    const followUp = changePrompt(change, { ...options, followUp: true })
    return {
      ...prepared,
      request: { jobId: decision.target.jobId, prompt: followUp, fallbackPrompt: prompt },
      followUp: true,
      fold: decision.target
    }
  }
  return { ...prepared, request: { prompt }, followUp: false }
}

type ChangePlan = { source?: string } & (
  | { skipped: string }
  | { push: PushRef; pull?: undefined; gate?: undefined }
  | { pull: PullRequestRef; push?: undefined; gate: boolean }
)

/** What the event allows, before any request: a skip, a push, or a pull request (gated when not merged). */
function planChange(settings: Settings, event: RunEvent): ChangePlan {
  if (event.name === 'push') {
    if (!event.push)
      throw new ExplainedError(
        "This push event's payload has no 'before' and 'after' commit ids, so there is no change to describe. Run the action on push events as GitHub sends them."
      )
    if (event.push.deleted)
      return {
        skipped: `The push deleted ${event.push.ref || 'the branch'}: there is nothing to document.`
      }
    return { push: event.push, source: event.push.compareUrl }
  }
  const pull = event.pullRequest
  if (!pull)
    throw new ExplainedError(
      `This ${event.name} event has no pull_request in its payload, so there is no change to describe. Run the action on ${event.name} events as GitHub sends them (a hand-made or re-sent payload must include pull_request).`
    )
  const source = pull.url || undefined
  if (event.action === 'closed' && !pull.merged)
    return {
      skipped: `Pull request #${pull.number} was closed without being merged: there is no change to document.`,
      source
    }
  const why = pullRefusal(pull, settings)
  if (why) return { skipped: why, source }
  // Anyone can open a pull request; merging one takes write access, so only unmerged ones are gated.
  return { pull, gate: !pull.merged, source }
}

function pullRefusal(pull: PullRequestRef, settings: Settings): string | undefined {
  if (pull.authorIsBot && !botAllowed(pull.author, settings.allowedBots))
    return `Pull request #${pull.number} is by @${pull.author}, a bot, and '${Input.AllowedBots}' does not list it.`
  const label = settings.skipLabel.toLowerCase()
  if (label && pull.labels.some(l => l.toLowerCase() === label))
    return `Pull request #${pull.number} has the label '${settings.skipLabel}' ('${Input.SkipLabel}').`
  return undefined
}

/** A push outside any pull request is judged by its pusher. */
function pusherRefusal(push: PushRef, settings: Settings): string | undefined {
  if (push.pusherIsBot && !botAllowed(push.pusher, settings.allowedBots))
    return `The push is by @${push.pusher}, a bot, and '${Input.AllowedBots}' does not list it.`
  return undefined
}

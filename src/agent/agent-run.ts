import { type AgentJob, checkAccess, getJob } from '../mintlify/agent-jobs.js'
import type { ApiClient } from '../mintlify/client.js'
import { openClient } from '../mintlify/connection.js'
import { type ApiError, AmbiguousWriteError, AuthError, NotFoundError } from '../mintlify/errors.js'
import { GitHubSession } from '../github/session.js'
import { DEFAULT_POLICY_PATH, loadPolicy, repositoryPolicyReader } from '../policy/load.js'
import { type Policy, defaultPolicy } from '../policy/policy.js'
import type { AgentAction as PolicyAction } from '../policy/actions.js'
import type { RunEvent } from '../github/event.js'
import { CancelledError, InputError, describeError, errorText } from '../runner/errors.js'
import { formatDuration } from '../runner/duration.js'
import { isUnexpanded, sendableSecret } from '../runner/inputs.js'
import type { Runner } from '../runner/runner.js'
import { type FlowDeps, type PreparedRun, type StartingRun, isStopped } from './prepared-run.js'
import type { CommentOutcome, CommentState } from './comment/live-comment.js'
import { Markers, stepIdentity } from './comment/marker.js'
import type { countedRun } from './ledger/counted-runs.js'
import { Input, Output, State } from './names.js'
import { type Result, failingWord, nothingStarted } from './outcome.js'
import type { Report } from './report.js'
import { type JobEnd, type OwnAfterJob, afterJob } from './after-job.js'
import { runAgentJob } from './run-job.js'
import { type Inputs, type Settings, secretsOf } from './settings.js'

/** How a run ended, on any path: what is reported. */
export type RunEnd = Pick<
  Report,
  | 'job'
  | 'outcome'
  | 'failure'
  | 'source'
  | 'fold'
  | 'batch'
  | 'dashboardUrl'
  | 'budget'
  | 'followUp'
  | 'continued'
  | 'comment'
  | 'access'
  | 'details'
  | 'estimate'
  | 'ownOutputs'
>

/** A job read while deciding where a change goes: a short look, not a wait. */
const LOOK_MS = 30_000

/** The settings the frame of every agent action reads: the service, the wait, the comment. */
export type FrameSettings = Pick<
  Settings,
  | 'apiKey'
  | 'projectId'
  | 'apiUrl'
  | 'githubToken'
  | 'docsToken'
  | 'codeToken'
  | 'wait'
  | 'timeoutMs'
  | 'pollIntervalMs'
  | 'failOn'
  | 'comment'
  | 'dryRun'
  | 'triggerPhrase'
  | 'creditsPerRun'
>

/** What an action does with its trigger before the job: its flow, fed by the frame. */
export type PrepareRun<S> = (
  settings: S,
  event: RunEvent,
  deps: FlowDeps & { runner: Runner; service: () => ApiClient }
) => Promise<PreparedRun | RunEnd>

/** Why an event asks nothing of an action, from its payload alone; the change it names, if any. */
export interface Refusal {
  why: string
  source?: string
}

/** An agent action: its inputs, what it refuses from the payload alone, its settings and its flow. */
export interface AgentAction<S extends FrameSettings> {
  /** Its name in the policy module (src/policy/actions.ts): which inputs are its own. */
  name: PolicyAction
  /** Its action.yml's defaults, for a run the runner gave none. */
  defaults: Readonly<Partial<Record<string, string>>>
  /**
   * Why the event asks nothing of this action, decided from the inputs and the payload alone:
   * the run ends `skipped` before any request (the policy file is not even read). Throws for an
   * event of another action's family, naming it.
   */
  refuse?: (inputs: Inputs, event: RunEvent) => Refusal | undefined
  /** Throws when an input this action needs is missing: checked before any request. */
  checkInputs?: (inputs: Inputs) => void
  /** The inputs over the policy file, with the rules across them this action needs. */
  settings: (inputs: Inputs, policy: Policy) => S
  prepare: PrepareRun<S>
  /** What it does of its own once a job it started ended (after-job.ts says what every run does). */
  afterJob?: OwnAfterJob<S>
}

/**
 * The frame of every agent action, once the inputs are valid: what the payload refuses, the policy
 * file, then the action's flow prepares the run, then the job, the wait, the live comment and what
 * the job's end calls for. A flow that ends the run by itself (reader impact) returns its end
 * instead of a prepared run.
 */
export async function runAgent<S extends FrameSettings>(
  inputs: Inputs,
  event: RunEvent,
  runner: Runner,
  signal: AbortSignal,
  action: AgentAction<S>,
  ran: { settings?: S } = {}
): Promise<RunEnd> {
  action.checkInputs?.(inputs)
  const refused = action.refuse?.(inputs, event)
  if (refused) {
    runner.log.notice(`Not starting the agent: ${refused.why}`)
    return {
      outcome: nothingStarted(refused.why, false, inputs.dryRun),
      ...(refused.source ? { source: refused.source } : {})
    }
  }
  // The step's time limit, for GitHub's rate limits: no wait for one goes past it.
  const session = new GitHubSession({
    cancel: signal,
    clock: runner.clock,
    deadline: runner.clock.now() + inputs.timeoutMs
  })
  try {
    const policy = await repositoryPolicy(inputs, event, { ...runner, session })
    const settings = (ran.settings = action.settings(inputs, policy))
    return await runPreparedAction(settings, event, runner, signal, action, session)
  } finally {
    await session.close()
  }
}

async function runPreparedAction<S extends FrameSettings>(
  settings: S,
  event: RunEvent,
  runner: Runner,
  signal: AbortSignal,
  action: Pick<AgentAction<S>, 'prepare' | 'afterJob'>,
  session: GitHubSession
): Promise<RunEnd> {
  const { log, clock } = runner
  let opened: ApiClient | undefined
  const service = (): ApiClient =>
    (opened ??= openClient(
      { ...settings, apiKey: sendableSecret(Input.ApiKey, settings.apiKey) },
      { log, signal, clock }
    ))
  try {
    let prepared: PreparedRun | RunEnd
    const readJob = (jobId: string): Promise<AgentJob> =>
      getJob(service(), settings.projectId, jobId, clock.now() + LOOK_MS)
    const deps = {
      ...flowDeps(settings, event, runner, { session, signal, readJob }),
      runner,
      service
    }
    try {
      prepared = await action.prepare(settings, event, deps)
    } catch (error) {
      // A read of GitHub stopped by the cancel fails as "no answer from GitHub": it was the cancel.
      throw signal.aborted && !(error instanceof CancelledError) ? cancelledBeforeJob() : error
    }
    // A cancel while reading GitHub can look like a refusal or an unreadable comment: it is neither.
    if (signal.aborted) throw cancelledBeforeJob()
    if ('outcome' in prepared) return prepared
    for (const notice of prepared.notices) log.notice(notice)
    // A preview, or a batch a control held, spends nothing now: whether the key and the project
    // would work is checked here, not found out when someone ticks the box days later.
    const check = settings.dryRun || (isStopped(prepared) && prepared.held)
    const about = {
      source: prepared.source,
      batch: prepared.batch,
      dashboardUrl: prepared.dashboardUrl,
      budget: prepared.budget,
      ...(check ? { access: await checkedAccess(service(), settings, runner) } : {})
    }
    if (isStopped(prepared)) {
      log.notice(`Not starting the agent: ${prepared.why}`)
      const would = prepared.wouldStart
      const estimate = would && costOf(would.decision, settings, 'a tick')
      if (estimate) log.info(estimate)
      return {
        ...about,
        ...(estimate ? { estimate } : {}),
        // A preview of a batch that waits for a tick shows what the tick would send.
        outcome:
          settings.dryRun && would
            ? { kind: 'dry-run', decision: 'skip', why: prepared.why, prompt: would.prompt }
            : nothingStarted(prepared.why, prepared.kind === 'wait', settings.dryRun)
      }
    }
    const spends = prepared.request.prompt !== undefined
    if (settings.dryRun) {
      const target = prepared.request.jobId ? ` to job ${prepared.request.jobId}` : ''
      log.notice(
        `Dry run: would ${prepared.kind === 'new-job' ? 'start a new job' : `send a follow-up${target}`}; nothing was written.`
      )
      const estimate = spends ? costOf(prepared.kind, settings, 'this run') : undefined
      return {
        ...about,
        ...(estimate ? { estimate } : {}),
        outcome: { kind: 'dry-run', decision: prepared.kind, prompt: prepared.request.prompt },
        fold: prepared.fold
      }
    }
    // An issue or comment run that cannot comment stops here, before anything is spent.
    await prepared.beforeSpending?.()
    const { result, uncertain, ...run } = await startAndWait(
      service(),
      settings,
      prepared,
      runner,
      signal
    )
    // The service is done with; closing it runs alongside what follows the job, so a cancelled
    // step still ends within the runner's grace.
    const closing = service().close()
    await afterJob(
      { ...run, result, uncertain },
      prepared,
      { settings, event, afterJob: action.afterJob },
      { log, clock, session, signal }
    )
    await closing
    // What the service accepted is spent: a job or a follow-up, at the policy's estimate.
    const spent = spends && run.job && run.followUp !== 'unconfirmed'
    const estimate = spent ? costOf(prepared.kind, settings, 'this run') : undefined
    if (estimate) log.info(estimate)
    const end: RunEnd = {
      ...run,
      ...(estimate ? { estimate } : {}),
      outcome: { kind: 'job', decision: prepared.kind, result }
    }
    return withComment({ ...end, ...about }, prepared.comment?.outcome(), settings, event)
  } finally {
    // A connection GitHub or a proxy never answered would keep the process alive: end them all.
    await Promise.all([opened?.close(), session.close()])
  }
}

/**
 * What a job or a follow-up costs, as far as anyone can tell: the policy's `credits-per-run`, an
 * estimate (Mintlify publishes averages; the API reports no usage).
 */
function costOf(
  decision: 'new-job' | 'follow-up',
  settings: Pick<Settings, 'creditsPerRun' | 'dryRun'>,
  who: 'this run' | 'a tick'
): string {
  const what = decision === 'new-job' ? 'a new job' : 'a follow-up'
  const spends =
    who === 'a tick'
      ? `A tick on the dashboard would start ${what}`
      : settings.dryRun
        ? `This run would start ${what}`
        : `This run started ${what}`
  return `${spends}: about ${settings.creditsPerRun.toLocaleString('en-US')} credits ('credits-per-run', an estimate: Mintlify publishes averages, the API reports no usage).`
}

/**
 * The policy of the workflow's repository: its policy file on the default branch, read through
 * the contents API with github-token (no checkout), or the built-in defaults when there is none.
 * Without a token or a repository (a local run) there is nothing to read: the defaults, said so.
 */
async function repositoryPolicy(
  inputs: Inputs,
  event: RunEvent,
  { log, session }: Pick<Runner, 'log'> & { session: GitHubSession }
): Promise<Policy> {
  const repository = event.owner && event.repo ? `${event.owner}/${event.repo}` : ''
  if (!repository || !inputs.githubToken || isUnexpanded(inputs.githubToken)) {
    if (inputs.config)
      throw new InputError(
        `Input '${Input.Config}' names ${inputs.config}, but this run has no ${repository ? `'${Input.GithubToken}'` : 'repository (GITHUB_REPOSITORY)'} to read it with.`
      )
    log.info(
      `Policy: the built-in defaults (no ${repository ? `'${Input.GithubToken}'` : 'repository'} to read ${DEFAULT_POLICY_PATH} with).`
    )
    return defaultPolicy()
  }
  const github = session.repository(inputs.githubToken, event)
  const policy = await loadPolicy({
    config: inputs.config,
    repository,
    read: repositoryPolicyReader(github, repository)
  })
  log.info(
    policy.file
      ? `Policy: ${policy.file} of ${repository}${policy.preset ? ` (extends ${policy.preset})` : ''}.`
      : `Policy: the built-in defaults (${repository} has no ${DEFAULT_POLICY_PATH} on its default branch).`
  )
  return policy
}

/**
 * What a request that spends nothing proves of the key and the project (checkAccess). A refused key
 * or an unknown project fails the run, naming the input; a service that does not answer is a
 * warning, since the run decided nothing that depends on it.
 */
async function checkedAccess(
  client: ApiClient,
  settings: FrameSettings,
  { log, clock }: Runner
): Promise<string> {
  try {
    await checkAccess(client, settings.projectId, clock.now() + LOOK_MS)
  } catch (error) {
    if (error instanceof AuthError || error instanceof NotFoundError) throw error
    const why = `could not be checked (${errorText(error).replace(/\.$/, '')}); the next run checks again.`
    log.warning(`The key and project ${why}`)
    return why
  }
  const proved = `checked with a request that spends nothing: the service accepted the key and sees project ${settings.projectId}. Whether the key may start jobs shows only when one starts (a read-only key is refused then).`
  log.info(`Key and project ${proved}`)
  return proved
}

/** The markers, the saved comment state and the clients every flow is given. */
function flowDeps(
  settings: FrameSettings,
  event: RunEvent,
  runner: Runner,
  {
    session,
    signal,
    readJob
  }: { session: GitHubSession; signal: AbortSignal; readJob: (jobId: string) => Promise<AgentJob> }
): FlowDeps {
  const saveState = (saved: CommentState): void =>
    runner.saveState(State.Comment, JSON.stringify(saved))
  const markers = new Markers(
    settings.apiKey,
    `${event.owner}/${event.repo}`,
    stepIdentity({
      job: runner.env.GITHUB_JOB,
      action: runner.env.GITHUB_ACTION,
      project: settings.projectId,
      promptSource: promptSource(runner)
    })
  )
  return { log: runner.log, clock: runner.clock, session, saveState, signal, markers, readJob }
}

/**
 * What the issue shows of the run, for the summary, with the comment's link; with `comment: true`
 * ("must comment"), a comment that could not be written fails the step.
 */
function withComment(
  end: RunEnd,
  outcome: CommentOutcome | undefined,
  settings: FrameSettings,
  event: RunEvent
): RunEnd {
  if (!outcome) return end
  const { commentId, ...rest } = outcome
  const url =
    commentId === undefined
      ? undefined
      : `${event.serverUrl}/${event.owner}/${event.repo}/issues/${outcome.issue}#issuecomment-${commentId}`
  const comment = { ...rest, ...(url ? { url } : {}) }
  if (outcome.error && settings.comment === 'true' && !end.failure)
    return {
      ...end,
      comment,
      failure: `Could not ${commentId === undefined ? 'comment on' : 'update the comment on'} #${outcome.issue} (${outcome.error}), and '${Input.Comment}' is 'true': the run must comment.${outcome.hint ?? ''}`
    }
  return { ...end, comment }
}

const cancelledBeforeJob = (): CancelledError =>
  new CancelledError('Cancelled before a job was started; nothing was sent to the service.')

/**
 * A run outside the ledger's batch that starts a job (an issue, a comment, a prompt, a review, a
 * change on its own): with a budget and the dashboard, its job is counted there. A person's request
 * is never held by the budget; a change on its own is, by the budget gate of its own list, which
 * reads the `ledger` this returns (src/changes/gates/order.ts).
 */
export async function withCounting(
  prepared: PreparedRun,
  settings: Pick<
    Settings,
    | 'apiKey'
    | 'projectId'
    | 'githubToken'
    | 'dashboardTitle'
    | 'maxJobs'
    | 'maxCredits'
    | 'creditsPerRun'
    | 'maxOpen'
    | 'dashboard'
    | 'dryRun'
  >,
  event: RunEvent,
  deps: Parameters<typeof countedRun>[2],
  run: Parameters<typeof countedRun>[3]
): Promise<{ prepared: PreparedRun; ledger?: Awaited<ReturnType<typeof countedRun>>['ledger'] }> {
  const starts = !isStopped(prepared) && prepared.request.prompt !== undefined
  const budgeted = settings.maxJobs || settings.maxCredits
  if (isStopped(prepared) || !starts || !budgeted || !settings.dashboard || settings.dryRun)
    return { prepared }
  // The ledger (its dashboard, its format's schema) loads only for a run a budget counts: an issue
  // run without one starts without it.
  const { countedRun: counting } = await import('./ledger/counted-runs.js')
  const counted = await counting(settings, event, deps, run)
  return {
    prepared: {
      ...prepared,
      ledger: counted.hooks,
      dashboardUrl: counted.dashboardUrl,
      notices: [...prepared.notices, ...(counted.notices ?? [])]
    },
    ...(counted.ledger ? { ledger: counted.ledger } : {})
  }
}

/** What the step asks, as the workflow wrote it: the prompt file's path, or the prompt's text. */
function promptSource(runner: Runner): string {
  const file = runner.input(Input.PromptFile).trim()
  return file ? `file:${file}` : `prompt:${runner.input(Input.Prompt).trim()}`
}

/** The job started (or followed up, or resumed) and waited for; a failure is told, not thrown. */
async function startAndWait(
  client: ApiClient,
  settings: FrameSettings,
  prepared: StartingRun,
  runner: Runner,
  signal: AbortSignal
): Promise<Omit<RunEnd, 'outcome'> & Pick<JobEnd, 'result' | 'uncertain'>> {
  const { comment, request, ledger } = prepared
  const { log, clock } = runner
  let { fold, followUp, continued } = prepared
  let latest: AgentJob | undefined
  try {
    const outcome = await runAgentJob(
      client,
      {
        projectId: settings.projectId,
        wait: settings.wait,
        timeoutMs: settings.timeoutMs,
        pollIntervalMs: settings.pollIntervalMs,
        // Only what was prepared: a resumed job gets no prompt, whatever the inputs say.
        prompt: request.prompt,
        jobId: request.jobId,
        fallbackPrompt: request.fallbackPrompt,
        fallbackFor: request.fallbackFor
      },
      {
        clock,
        log,
        signal,
        group: (title, fn) => runner.group(title, fn),
        onJob: seen => {
          latest = seen
          // Set at once, so `if: always()` steps have it even if the step dies later.
          runner.setOutput(Output.JobId, seen.id)
        },
        onAccepted: async (seen, followedUp) => {
          try {
            await ledger?.accepted(seen, followedUp)
          } catch (error) {
            log.warning(
              `Job ${seen.id} was started, but the dashboard could not record it (${errorText(error)}): the next run may send the same changes again.`
            )
          }
        },
        onWaiting: async seen => comment?.working(seen, followUp),
        onFallback: reason => {
          log.notice(reason)
          fold = undefined
          continued = undefined
          followUp = false
          comment?.unfold()
        }
      }
    )
    const { job, result } = outcome
    return {
      job,
      result,
      followUp: outcome.followUp,
      failure: explainResult(job, result, settings, runner, outcome),
      fold,
      continued
    }
  } catch (error) {
    return {
      ...(error instanceof AmbiguousWriteError
        ? {
            uncertain: {
              followUp: Boolean(request.jobId),
              why: error.message,
              jobId: request.jobId
            }
          }
        : {}),
      job: latest,
      result: signal.aborted ? 'cancelled' : undefined,
      failure: describeError(error, secretsOf(settings), log.debug),
      fold,
      continued
    }
  }
}

function explainResult(
  job: AgentJob,
  result: Result,
  settings: FrameSettings,
  runner: Runner,
  { lastError, followUp }: { lastError?: ApiError; followUp?: string }
): string | undefined {
  if (result === 'cancelled') {
    return `The run was cancelled while waiting for job ${job.id}; the job may still finish on the service.`
  }
  if (result === 'timed-out') {
    const why = lastError ? ` The last status check failed: ${lastError.message}.` : ''
    const state =
      followUp === 'unconfirmed'
        ? `it had not been seen working on the follow-up (its status was ${job.status ?? 'unknown'})`
        : `it was still ${job.status ?? 'running'}`
    runner.log.warning(
      `Stopped waiting for job ${job.id} after ${formatDuration(settings.timeoutMs)}; ${state}.${why} ` +
        `It may still finish on the service: run this action with job-id: ${job.id} to keep waiting.`
    )
  }
  const word = failingWord(result, settings.failOn)
  if (!word) return undefined
  return `Job ${job.id} ended as '${result}', and 'fail-on' includes '${word}'.`
}

import { type GitHubApi, type ReviewComment, describeGitHubError } from '../github/api.js'
import type { RunEvent } from '../github/event.js'
import type { AgentJob } from '../mintlify/agent-jobs.js'
import { docsPrPlace } from '../records/docs-pr.js'
import { CancelledError, InputError, errorText } from '../runner/errors.js'
import { sendableSecret } from '../runner/inputs.js'
import type { Logger } from '../runner/logger.js'
import { LiveComment, unknownEarlierJob } from '../agent/comment/live-comment.js'
import { commandText } from '../agent/command-text.js'
import type { ReviewMode, TriggerSettings } from '../agent/settings.js'
import { Input } from '../agent/names.js'
import { type FlowDeps, type PreparedRun, skippedRun, startingRun } from '../agent/prepared-run.js'
import { type Gate, applyGates } from '../agent/gates/gate.js'
import { type TrustInput, trust } from '../agent/gates/trust.js'
import { reviewFollowUp } from './review-prompt.js'
import { docsPulls } from '../agent/docs-repository.js'
import { findTrustedRecord, safeLogin } from '../agent/trusted-record.js'

export interface ReviewSettings extends TriggerSettings {
  apiKey: string
  projectId: string
  docsToken: string
  followReviews: ReviewMode
}

/** A review, or a comment on a pull request: what may follow up on a docs pull request's job. */
export const isReviewEvent = (event: Pick<RunEvent, 'name' | 'issue'>): boolean =>
  event.name === 'pull_request_review' ||
  (event.name === 'issue_comment' && Boolean(event.issue?.isPullRequest))

export type Asked =
  { skipped: string } | { kind: 'review' | 'comment'; body: string; reviewId?: number }

/** The controls of a review follow-up, once its job is found: who reviewed or commented. */
export const REVIEW_GATES: readonly Gate<TrustInput>[] = [trust]

/** What the event asks, from the payload alone; undefined: not a review follow-up (an issue run). */
export function askedOf(
  settings: Pick<ReviewSettings, 'triggerPhrase' | 'followReviews'>,
  event: RunEvent
): Asked | undefined {
  const phrase = settings.triggerPhrase
  if (event.name === 'issue_comment') {
    if (event.action && event.action !== 'created') return undefined
    const text = commandText(event.comment?.body ?? '', phrase)
    return text === undefined ? undefined : { kind: 'comment', body: text }
  }
  if (event.action !== 'submitted')
    return {
      skipped: `Review activity '${/^[a-z_]{1,40}$/.test(event.action ?? '') ? event.action : 'unknown'}' is not a submitted review; only submitted reviews are sent to the agent.`
    }
  const review = event.review
  if (!review || !event.issue)
    return {
      skipped: 'This pull_request_review event has no review or pull request in its payload.'
    }
  if (settings.followReviews === 'all')
    return { kind: 'review', body: review.body, reviewId: review.id }
  const text = commandText(review.body, phrase)
  if (text === undefined)
    return {
      skipped: `The review does not start with '${phrase}' ('${Input.FollowReviews}' is 'phrase').`
    }
  return { kind: 'review', body: text, reviewId: review.id }
}

const skip = (why: string): PreparedRun => skippedRun(why)

/**
 * A review or a trigger-phrase comment on a docs pull request the agent opened, in the docs
 * repository: sent to the pull request's job as a follow-up, the job found only from the record the
 * code repository's run wrote there with `docs-token` (trusted-record.ts). The same permission gate,
 * cleaning and live status comment as an issue's follow-up; a merged or closed pull request, or a
 * job the service archived or no longer has, gets a notice and nothing sent. A comment on a pull
 * request without such a record is no review follow-up: undefined, and it goes on as on any pull
 * request (an issue run), so `/docs-agent` keeps working in the code repository.
 */
export async function prepareReviewRun(
  settings: ReviewSettings,
  event: RunEvent,
  deps: FlowDeps
): Promise<PreparedRun | undefined> {
  const asked = askedOf(settings, event)
  if (asked === undefined) return undefined
  if ('skipped' in asked) return skip(asked.skipped)
  const isComment = asked.kind === 'comment'
  if (!settings.docsToken)
    throw new InputError(
      `A review or comment is sent to the job of the docs pull request, named by a record written with '${Input.DocsToken}': set '${Input.DocsToken}' to the same secret as the workflow that started the job.`
    )
  if (!settings.githubToken)
    throw new InputError(
      `Input '${Input.GithubToken}' is empty: it is needed to read the pull request's comments. Leave it at its default (\${{ github.token }}).`
    )
  const { log, session, signal } = deps
  const pr = event.issue as NonNullable<RunEvent['issue']>
  const place = docsPrPlace({ owner: event.owner, repo: event.repo, number: pr.number })
  const github = session.repository(settings.githubToken, event)
  // An unusable docs token fails the run here, as the connection to GitHub did when opened.
  sendableSecret(Input.DocsToken, settings.docsToken)
  const docs = docsPulls(settings, event.apiUrl, { session })
  const cancelled = (): boolean => Boolean(signal?.aborted)
  let search: Awaited<ReturnType<typeof findTrustedRecord>>
  try {
    search = await findTrustedRecord(
      github,
      docs,
      { owner: event.owner, repo: event.repo, number: pr.number, place },
      settings
    )
  } catch (error) {
    if (cancelled()) throw new CancelledError('Cancelled while reading the pull request.')
    search = { why: `its comments could not be read (${describeGitHubError(error)})` }
  }
  if ('warning' in search) {
    log.warning(search.warning)
    return isComment ? undefined : skip(`Nothing was sent from ${place}.`)
  }
  if ('why' in search) {
    const why = `${place} has no record this run trusts naming its docs job: ${search.why}`
    if (!isComment) return skip(`${why}. Nothing was sent.`)
    if (search.forged) log.notice(`${why}.`)
    else log.info(`${why}.`)
    return undefined
  }
  const { job: jobId } = search.found
  const stop = await applyGates(REVIEW_GATES, {
    event,
    settings,
    github: async () => github,
    signal
  })
  if (cancelled()) throw new CancelledError('Cancelled while checking the permission.')
  if (stop) return skip(stop.why)
  const ended = await endedWhy(github, pr.number, place, jobId, deps.readJob)
  if (cancelled()) throw new CancelledError('Cancelled.')
  if (ended) return skip(ended)
  const inline = asked.reviewId ? await inlineOf(github, pr.number, asked.reviewId, log) : []
  const prompt = reviewFollowUp({
    pr: place,
    url: pr.url,
    author: safeLogin(event.actor),
    kind: asked.kind,
    body: asked.body,
    inline,
    standing: settings.instructions
  })
  if (prompt === undefined)
    return skip(
      `The ${asked.kind} has no text to send${isComment ? ` after '${settings.triggerPhrase}': write what to change` : ''}.`
    )
  const source = pr.url || place
  if (settings.comment === 'false')
    return startingRun({ request: { jobId, prompt }, followUp: true, source, onDocsPr: true })
  return withStatusComment(settings, event, deps, github, { jobId, prompt, source, place, asked })
}

/**
 * The follow-up with its status comment on the docs pull request: a re-run waits for the follow-up
 * its first attempt sent; otherwise the project's latest comment there is kept current.
 */
async function withStatusComment(
  settings: ReviewSettings,
  event: RunEvent,
  deps: FlowDeps,
  github: GitHubApi,
  {
    jobId,
    prompt,
    source,
    place,
    asked
  }: { jobId: string; prompt: string; source: string; place: string; asked: { kind: string } }
): Promise<PreparedRun> {
  const { log } = deps
  const pr = event.issue as NonNullable<RunEvent['issue']>
  const comment = new LiveComment(
    github,
    pr.number,
    { run: event.runId, attempt: event.runAttempt, project: settings.projectId },
    { runUrl: event.runUrl, projectId: settings.projectId },
    log,
    deps.saveState,
    deps.markers
  )
  const recorded = await comment.recorded()
  if (deps.signal?.aborted) throw new CancelledError('Cancelled.')
  if (comment.unreadable && event.runAttempt > 1) throw unknownEarlierJob(event, place)
  // This step's follow-up, sent by an earlier attempt: the re-run waits for it and sends nothing.
  const own = event.runId
    ? recorded.find(r => r.marker.run === event.runId && r.marker.step === deps.markers.step)
    : undefined
  if (own) {
    comment.adopt(own.commentId, own.marker)
    log.info(
      `Attempt ${event.runAttempt} of this run resumes job ${own.marker.job}: attempt ${own.marker.attempt} sent it this ${asked.kind} already.`
    )
    return startingRun({
      request: { jobId: own.marker.job },
      comment,
      followUp: false,
      source,
      onDocsPr: true
    })
  }
  // One status comment per docs pull request and project: the latest is kept current.
  const latest = recorded.find(
    r => r.marker.project === settings.projectId && r.marker.run !== event.runId
  )
  if (latest) comment.adopt(latest.commentId, latest.marker)
  log.info(`Sending the ${asked.kind} on ${place} to job ${jobId} as a follow-up.`)
  return startingRun({
    request: { jobId, prompt },
    comment,
    followUp: true,
    source,
    onDocsPr: true,
    // As on an issue: a follow-up whose status cannot reach the pull request is not sent.
    beforeSpending: () => comment.claim(settings.comment === 'true')
  })
}

/** Why the job takes no follow-up (its pull request merged or closed, the job gone), or undefined. */
async function endedWhy(
  github: GitHubApi,
  number: number,
  place: string,
  jobId: string,
  readJob: (jobId: string) => Promise<AgentJob>
): Promise<string | undefined> {
  try {
    const pull = await github.pull(number)
    if (pull.merged) return `${place} is already merged: job ${jobId} is done. Nothing was sent.`
    if (pull.state !== 'open')
      return `${place} is closed: job ${jobId} is done. Nothing was sent; reopen it to send reviews again.`
  } catch (error) {
    return `Could not read the state of ${place} (${describeGitHubError(error)}), so nothing was sent.`
  }
  let job: AgentJob
  try {
    job = await readJob(jobId)
  } catch (error) {
    return `Could not read job ${jobId}, named on ${place} (${errorText(error).replace(/\.$/, '')}): it may have expired on the service. Nothing was sent.`
  }
  if (job.status === 'archived')
    return `Job ${jobId}, named on ${place}, was archived on the service: it takes no follow-up. Nothing was sent.`
  return undefined
}

/** A review's inline comments; when they cannot be read, the review's body goes alone, with a warning. */
async function inlineOf(
  github: GitHubApi,
  pull: number,
  review: number,
  log: Logger
): Promise<ReviewComment[]> {
  try {
    return await github.reviewComments(pull, review)
  } catch (error) {
    log.warning(
      `Could not read the inline comments of review ${review} (${describeGitHubError(error)}): only its body is sent.`
    )
    return []
  }
}

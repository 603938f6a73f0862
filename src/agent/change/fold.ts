import { errorText } from '../../runner/errors.js'
import type { AgentJob } from '../../mintlify/agent-jobs.js'
import { type GitHubApi, PAGE_SIZE, describeGitHubError, refusedAccess } from '../../github/api.js'
import { unknownEarlierJob } from '../comment/live-comment.js'
import { type Marker, type Markers, parseMarker } from '../comment/marker.js'

/** Where a change is folded: an earlier job whose docs pull request is open, or which still runs. */
export interface FoldTarget {
  jobId: string
  /** The job's docs pull request, when it has one yet. */
  docsPr?: string
}

/** An earlier attempt of this very run recorded its job: a re-run waits on it, nothing is sent. */
export interface Resume {
  marker: Marker
  commentId: number
  issue: number
}

export interface FoldDecision {
  target?: FoldTarget
  resume?: Resume
  /** Why a new job starts although folding was on, when the user should hear it (a notice). */
  notice?: string
  /** What was decided and why, for the log. */
  info?: string
}

export interface FoldContext {
  /** The code repository. */
  github: GitHubApi
  /** A connection that can read the docs repository's pull requests (`docs-token` when set). */
  docsGitHub: (owner: string, repo: string) => GitHubApi
  readJob: (jobId: string) => Promise<AgentJob>
  projectId: string
  runId: string
  /** A re-run must find its own job: unreadable comments then stop the run rather than start another. */
  runAttempt: number
  /** The run's GitHub (GITHUB_SERVER_URL): docs pull requests elsewhere cannot be read. */
  serverUrl: string
  /** `fold: open-pr`; otherwise only a re-run's own job is looked for. */
  fold: boolean
  /** Reads only the markers this action signed, each for its own issue. */
  markers: Markers
}

/** The repository's newest comments read at most: 200, one or two requests. */
const MAX_COMMENT_PAGES = 2

/**
 * Finds the job this change belongs to, from the action's own markers in bot comments of the
 * repository, newest first: this run's own (a re-run), or the latest job of the same project whose
 * docs pull request is still open or which is still running. Anything that cannot be read means a
 * new job, never a guess.
 */
export async function decideFold(ctx: FoldContext): Promise<FoldDecision> {
  let found: { resume?: Resume; latest?: Marker }
  try {
    found = await findMarkers(ctx)
  } catch (error) {
    if (ctx.runAttempt > 1)
      throw unknownEarlierJob({ runAttempt: ctx.runAttempt }, 'the repository')
    const why = `Could not read the repository's comments (${describeGitHubError(error)}) to find an earlier docs job`
    return ctx.fold
      ? {
          notice: `${why}, so this change starts a new job. Give the workflow 'pull-requests: read'.`
        }
      : { info: `${why}; starting a new job.` }
  }
  if (found.resume) return { resume: found.resume }
  const latest = found.latest
  if (!ctx.fold) return { info: "'fold' is 'never': starting a new job." }
  if (!latest)
    return {
      info: `No earlier job of project ${ctx.projectId} in the repository's last ${MAX_COMMENT_PAGES * PAGE_SIZE} comments: starting a new job.`
    }
  let docsPr = latest.pr
  if (!docsPr) {
    let job: AgentJob
    try {
      job = await ctx.readJob(latest.job)
    } catch (error) {
      return {
        notice: `Could not read the earlier job ${latest.job} (${errorText(error)}), so this change starts a new job.`
      }
    }
    if (job.status === 'active')
      return {
        target: { jobId: latest.job },
        info: `Job ${latest.job} is still running: sending this change to it as a follow-up.`
      }
    if (!job.prLink)
      return {
        info: `The earlier job ${latest.job} ended (${job.status ?? 'status unknown'}) without a docs pull request: starting a new job.`
      }
    docsPr = job.prLink
  }
  const state = await docsPrState(ctx, docsPr)
  if ('error' in state)
    return {
      notice: `Could not read the state of the docs pull request ${docsPr} (${state.error}), so this change starts a new job instead of joining it.${state.hint ?? ''}`
    }
  if (state.open)
    return {
      target: { jobId: latest.job, docsPr },
      info: `The docs pull request ${docsPr} of job ${latest.job} is still open: sending this change to the job as a follow-up.`
    }
  return {
    info: `The docs pull request ${docsPr} of job ${latest.job} is ${state.merged ? 'merged' : 'closed'}: starting a new job.`
  }
}

async function findMarkers(ctx: FoldContext): Promise<{ resume?: Resume; latest?: Marker }> {
  let latest: Marker | undefined
  for await (const comments of ctx.github.recentComments(MAX_COMMENT_PAGES)) {
    for (const comment of comments) {
      // Only comments written by a bot count, so no one can plant a marker.
      const marker =
        comment.authorType === 'Bot'
          ? parseMarker(comment.body, ctx.markers, comment.issue)
          : undefined
      if (!marker || marker.kind !== 'change' || marker.project !== ctx.projectId) continue
      // This step's own job, from an earlier attempt; a sibling step's job in this run is not it.
      if (ctx.runId && marker.run === ctx.runId && marker.step === ctx.markers.step)
        return { resume: { marker, commentId: comment.id, issue: comment.issue } }
      latest ??= marker
    }
    if (latest) break
  }
  return { latest }
}

type PrState = { open: boolean; merged: boolean } | { error: string; hint?: string }

async function docsPrState(ctx: FoldContext, link: string): Promise<PrState> {
  const where = parsePullLink(link, ctx.serverUrl)
  if (!where) return { error: `it is not a pull request on ${ctx.serverUrl}` }
  try {
    const pull = await ctx.docsGitHub(where.owner, where.repo).pull(where.number)
    return { open: pull.state === 'open', merged: pull.merged }
  } catch (error) {
    const hint = refusedAccess(error)
      ? " If the docs repository is private, set 'docs-token' to a token that can read its pull requests."
      : undefined
    return { error: describeGitHubError(error), hint }
  }
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

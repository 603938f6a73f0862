import { type GitHubApi, describeGitHubError, refusedAccess } from '../../github/api.js'
import { type PullRequestRef, parsePullLink } from '../../github/event.js'
import type { Logger } from '../../runner/logger.js'
import { codeSpan, markdownLink } from '../../runner/markdown.js'
import { LIVE } from './fold.js'
import { Input } from '../names.js'
import type { ProjectLedger } from '../../records/ledger.js'

/** What became of a job's docs pull request, as read (and perhaps closed) in this run. */
export interface DocsPullUpdate {
  jobId: string
  /** The docs pull request, when the service reported it only now. */
  prLink?: string
  state: 'active' | 'started' | 'open' | 'merged' | 'closed' | 'expired' | 'ended'
  prCreatedAt?: number
  endedAt?: number
  /** Read for the outcomes at this time (epoch ms). */
  checkedAt?: number
}

export interface ExpiryContext {
  /** `expire-after` in ms, and as the user wrote it. */
  afterMs: number
  afterText: string
  now: number
  /** A connection to a docs repository with `docs-token`. */
  docsGitHub: (owner: string, repo: string) => GitHubApi
  serverUrl: string
  /** The dashboard issue, linked from the closing comment. */
  dashboardUrl?: string
  log: Logger
  /** Decide only: read, but close and comment on nothing. */
  dryRun: boolean
}

/** Docs pull requests read at most for expiry in one run (the oldest first). */
export const MAX_EXPIRY_READS = 5

/**
 * `expire-after`: the ledger's docs pull requests of the project that have stayed open longer than
 * the duration, measured from their creation, are closed with a comment that says why and links
 * the dashboard. Only pull requests the ledger holds are read, and only those whose job started
 * long enough ago (a docs pull request is never older than its job). A docs token without access
 * is a warning naming it; the run goes on.
 */
export async function expireStale(
  project: ProjectLedger,
  ctx: ExpiryContext
): Promise<{ updates: DocsPullUpdate[]; expired: string[] }> {
  const updates: DocsPullUpdate[] = []
  const expired: string[] = []
  const due = project.jobs
    .filter(j => j.prLink && LIVE.has(j.state) && ctx.now - j.startedAt > ctx.afterMs)
    .sort((a, b) => a.startedAt - b.startedAt)
    .slice(0, MAX_EXPIRY_READS)
  for (const job of due) {
    const link = job.prLink as string
    const where = parsePullLink(link, ctx.serverUrl)
    if (!where) continue
    const docs = ctx.docsGitHub(where.owner, where.repo)
    let pull: PullRequestRef
    try {
      pull = await docs.pull(where.number)
    } catch (error) {
      ctx.log.warning(
        `Could not read the docs pull request ${link} with '${Input.DocsToken}' (${describeGitHubError(error)}), so stale docs pull requests are not closed in this run.${accessHint(error, where)}`
      )
      break
    }
    const seen = settled(job.id, pull)
    if (seen) {
      updates.push(seen)
      continue
    }
    const createdAt = pull.createdAt ?? job.startedAt
    if (ctx.now - createdAt <= ctx.afterMs) {
      updates.push({ jobId: job.id, state: 'open', prCreatedAt: createdAt })
      continue
    }
    if (ctx.dryRun) {
      ctx.log.info(
        `Dry run: the docs pull request ${link} has been open longer than 'expire-after: ${ctx.afterText}' and would be closed.`
      )
      continue
    }
    let closed: PullRequestRef
    try {
      closed = await docs.closePull(where.number)
    } catch (error) {
      ctx.log.warning(
        `Could not close the docs pull request ${link}, open longer than 'expire-after: ${ctx.afterText}', with '${Input.DocsToken}' (${describeGitHubError(error)}).${accessHint(error, where)}`
      )
      break
    }
    // Merged in the meantime: GitHub keeps a merged pull request as it is.
    const after = closed.merged ? settled(job.id, closed) : undefined
    if (after) {
      updates.push(after)
      continue
    }
    updates.push({ jobId: job.id, state: 'expired', prCreatedAt: createdAt, endedAt: ctx.now })
    expired.push(link)
    ctx.log.notice(
      `Closed the docs pull request ${link}: open longer than 'expire-after: ${ctx.afterText}'. The next change starts a new job.`
    )
    try {
      await docs.createComment(where.number, closingComment(ctx, createdAt))
    } catch (error) {
      ctx.log.warning(
        `Closed ${link} but could not say why in a comment (${describeGitHubError(error)}).`
      )
    }
  }
  return { updates, expired }
}

/** A docs pull request merged or closed (by a person) already: nothing to close. */
function settled(jobId: string, pull: PullRequestRef): DocsPullUpdate | undefined {
  if (pull.merged)
    return { jobId, state: 'merged', prCreatedAt: pull.createdAt, endedAt: pull.mergedAt }
  if (pull.state !== 'open')
    return { jobId, state: 'closed', prCreatedAt: pull.createdAt, endedAt: pull.closedAt }
  return undefined
}

function accessHint(error: unknown, where: { owner: string; repo: string }): string {
  return refusedAccess(error)
    ? ` Give '${Input.DocsToken}' read and write access to the pull requests of ${where.owner}/${where.repo}.`
    : ''
}

function closingComment(ctx: ExpiryContext, createdAt: number): string {
  const opened = new Date(createdAt).toISOString().slice(0, 10)
  const dashboard = ctx.dashboardUrl
    ? ` The changes it held are listed on the ${markdownLink('docs agent dashboard', ctx.dashboardUrl)}.`
    : ''
  return `📝 **Mintlify agent action**: closed, because this docs pull request has been open since ${opened}, longer than ${codeSpan(`expire-after: ${ctx.afterText}`)} allows.${dashboard} The next code change starts a fresh docs pull request; reopen this one to keep working on it by hand.`
}

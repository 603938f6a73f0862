import { type GitHubApi, describeGitHubError, refusedAccess } from '../../github/api.js'
import type { AgentJob } from '../../mintlify/agent-jobs.js'
import { DocsPrRecords, docsPrPlace } from '../../records/docs-pr.js'
import type { Logger } from '../../runner/logger.js'
import { codeSpan } from '../../runner/markdown.js'
import { parsePullLink } from '../../github/event.js'
import type { CommentMode } from '../settings.js'
import { Input } from '../names.js'

export interface RecordContext {
  /** `comment: false` writes no comment anywhere, this one included. */
  comment: CommentMode
  apiKey: string
  projectId: string
  /** The trigger phrase the docs repository's workflow is told to use, for the visible line. */
  triggerPhrase: string
  serverUrl: string
  /** A connection to the docs repository with `docs-token`. */
  docsGitHub: (owner: string, repo: string) => GitHubApi
  log: Logger
}

/**
 * Once a job's docs pull request is known, says on it which job it belongs to: a comment written
 * with `docs-token`, holding a record signed for that pull request, which the docs repository's
 * run trusts (review-run.ts) to send reviews to the job. Written once per pull request and job: a
 * re-run or a fold finds it among the comments and writes nothing. A token that cannot read costs
 * the run a warning naming `docs-token`, nothing else; one that can read but not comment (the
 * read-only token folding needs) only an info line, since review follow-ups are opt-in.
 */
export async function recordDocsPr(job: AgentJob, ctx: RecordContext): Promise<void> {
  const where = job.prLink ? parsePullLink(job.prLink, ctx.serverUrl) : undefined
  if (!where || ctx.comment === 'false') return
  const place = docsPrPlace(where)
  const records = new DocsPrRecords(ctx.apiKey)
  const fail = (what: string, error: unknown): void =>
    ctx.log.warning(
      `Could not ${what} ${place} with '${Input.DocsToken}' (${describeGitHubError(error)}), so reviews there do not reach job ${job.id}.${refusedAccess(error) ? ` Give '${Input.DocsToken}' write access to the pull requests of ${where.owner}/${where.repo}.` : ''} The run goes on.`
    )
  let docs: GitHubApi
  try {
    // An unusable token (an unexpanded expression) fails here: a warning like any refusal.
    docs = ctx.docsGitHub(where.owner, where.repo)
    const comments = await docs.listComments(where.number)
    if (comments.some(c => records.read(c.body, place)?.job === job.id)) {
      ctx.log.debug(`${place} already names job ${job.id}.`)
      return
    }
  } catch (error) {
    fail('read the comments of', error)
    return
  }
  const body = [
    records.render({ pr: place, job: job.id, project: ctx.projectId }),
    `🔗 The docs agent's job for this pull request: ${codeSpan(job.id)} (project ${codeSpan(ctx.projectId)}).`,
    `Comment ${codeSpan(`${ctx.triggerPhrase} <what to change>`)} to send it a follow-up.`
  ].join('\n')
  try {
    await docs.createComment(where.number, body)
    ctx.log.info(`Recorded job ${job.id} on ${place}: reviews there can reach it.`)
  } catch (error) {
    if (refusedAccess(error))
      ctx.log.info(
        `'${Input.DocsToken}' can read ${place} but not comment on it (${describeGitHubError(error)}), so reviews there do not reach job ${job.id}. To send them, give it write access to the pull requests of ${where.owner}/${where.repo}.`
      )
    else fail('comment on', error)
  }
}

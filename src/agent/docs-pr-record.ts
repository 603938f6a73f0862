import { type DocsPulls, docsFailure } from '../github/docs-pulls.js'
import type { AgentJob } from '../mintlify/agent-jobs.js'
import { DocsPrRecords, docsPrPlace } from '../records/docs-pr.js'
import type { Logger } from '../runner/logger.js'
import { codeSpan } from '../runner/markdown.js'
import { parsePullLink } from '../github/event.js'
import type { CommentMode } from './settings.js'

export interface RecordContext {
  /** `comment: false` writes no comment anywhere, this one included. */
  comment: CommentMode
  apiKey: string
  projectId: string
  /** The trigger phrase the docs repository's workflow is told to use, for the visible line. */
  triggerPhrase: string
  serverUrl: string
  /** The docs repository's pull requests, with `docs-token`. */
  docs: DocsPulls
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
  const { docs } = ctx
  const fail = (what: string, error: unknown): void => {
    const failed = docsFailure(error)
    ctx.log.warning(
      `Could not ${what} ${place} with '${docs.tokenInput}' (${failed.why}), so reviews there do not reach job ${job.id}.${failed.grant('write')} The run goes on.`
    )
  }
  try {
    // An unusable token (an unexpanded expression) fails here: a warning like any refusal.
    const comments = await docs.comments(where)
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
    await docs.comment(where, body)
    ctx.log.info(`Recorded job ${job.id} on ${place}: reviews there can reach it.`)
  } catch (error) {
    const failed = docsFailure(error)
    if (failed.refused)
      ctx.log.info(
        `'${docs.tokenInput}' can read ${place} but not comment on it (${failed.why}), so reviews there do not reach job ${job.id}.${failed.grant('write')}`
      )
    else fail('comment on', error)
  }
}

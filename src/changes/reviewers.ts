import { type DocsPull, type DocsPulls, docsFailure } from '../github/docs-pulls.js'
import type { Logger } from '../runner/logger.js'
import type { ChangeBatch } from '../agent/batch.js'
import { parsePullLink } from '../github/event.js'

/** People checked and requested at most in one run (GitHub takes a few at a time anyway). */
export const MAX_REVIEWERS = 10

const LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/

export interface ReviewerContext {
  /** The docs repository's pull requests, with `docs-token`. */
  docs: DocsPulls
  serverUrl: string
  log: Logger
}

/**
 * `reviewers: authors`: the authors of the batch's pull requests (the changes this run put in the
 * docs pull request, folded ones included), never bots and never co-authors, are requested as
 * reviewers on the docs pull request, each checked first for access to the docs repository: GitHub
 * refuses the whole request when one of them has none. Commits pushed without a pull request are
 * left out: their author is a git name, not surely a GitHub account. Nothing here stops the run: a
 * refusal is a warning naming `docs-token`.
 */
export async function requestAuthors(
  batch: Pick<ChangeBatch, 'pulls'>,
  prLink: string,
  ctx: ReviewerContext
): Promise<string[]> {
  const where = parsePullLink(prLink, ctx.serverUrl)
  if (!where) return []
  const authors = [
    ...new Set(
      batch.pulls
        .filter(p => !p.authorIsBot && LOGIN.test(p.author) && !/\[bot\]$/i.test(p.author))
        .map(p => p.author)
    )
  ].slice(0, MAX_REVIEWERS)
  if (!authors.length) return []
  const { docs } = ctx
  const withAccess: string[] = []
  const without: string[] = []
  let notFound = 0
  for (const login of authors) {
    let permission: string | undefined
    try {
      permission = await docs.permission(where, login)
    } catch (error) {
      const failed = docsFailure(error)
      // 404: no such account, or none GitHub shows this token: no access either way.
      if (!failed.missing) {
        ctx.log.warning(
          `Could not check ${login}'s access to ${where.owner}/${where.repo} with '${docs.tokenInput}' (${failed.why}), so no reviewers are requested on ${prLink}.${failed.grant('write')}`
        )
        return []
      }
      notFound++
    }
    if (permission && permission !== 'none') withAccess.push(login)
    else without.push(login)
  }
  // GitHub answers 404 for every user of a repository the token cannot see: when it knew none of
  // them, the pull request itself tells the two apart.
  if (notFound === authors.length && !(await canRead(docs, where))) {
    ctx.log.warning(
      `GitHub knows none of ${authors.join(', ')} on ${where.owner}/${where.repo} (HTTP 404 for each), as it answers when '${docs.tokenInput}' cannot see that repository, so no reviewers are requested on ${prLink}.${docs.grant('write', where)}`
    )
    return []
  }
  if (without.length)
    ctx.log.info(
      `Not requested as reviewers, without access to ${where.owner}/${where.repo}: ${without.join(', ')}.`
    )
  if (!withAccess.length) return []
  try {
    await docs.requestReviewers(where, withAccess)
  } catch (error) {
    const failed = docsFailure(error)
    ctx.log.warning(
      `Could not request reviews from ${withAccess.join(', ')} on ${prLink} with '${docs.tokenInput}' (${failed.why}).${failed.grant('write')}`
    )
    return []
  }
  ctx.log.info(`Requested reviews on ${prLink} from ${withAccess.join(', ')}.`)
  return withAccess
}

async function canRead(docs: DocsPulls, pull: DocsPull): Promise<boolean> {
  try {
    await docs.pull(pull)
    return true
  } catch {
    return false
  }
}

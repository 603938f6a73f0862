import type { GitHubApi } from '../github/api.js'
import { type DocsPull, type DocsPulls, docsFailure } from '../github/docs-pulls.js'
import { botName } from '../github/event.js'
import { SERVICE_ID } from '../mintlify/connection.js'
import { type DocsPrRecord, DocsPrRecords } from '../records/docs-pr.js'
import { Input } from './names.js'

export type RecordSearch =
  | { found: DocsPrRecord }
  /** No record this run can trust; `why` says what was seen, for the notice. */
  | { why: string; forged?: boolean }
  /** `docs-token` could not tell who it is: no record can be trusted (a warning). */
  | { warning: string }

/**
 * The job a docs pull request belongs to, from the record the code repository's run wrote there
 * (docs-pr-record.ts): only a record in a comment written by the `docs-token` identity, signed for
 * this pull request with the project's key, and of this run's project counts. Nothing else in the
 * thread (a link, a job id typed by anyone, a record edited, copied from another pull request or
 * posted by another account) names a job.
 */
export async function findTrustedRecord(
  github: GitHubApi,
  docs: DocsPulls,
  pull: DocsPull & { place: string },
  settings: { apiKey: string; projectId: string }
): Promise<RecordSearch> {
  const records = new DocsPrRecords(settings.apiKey)
  // Signed records first: a thread without one costs no question about `docs-token`.
  const signed = (await github.listComments(pull.number))
    .map(comment => ({ author: comment.author, record: records.read(comment.body, pull.place) }))
    .filter(
      (c): c is { author: string; record: DocsPrRecord } =>
        c.record?.project === settings.projectId && SERVICE_ID.test(c.record.job)
    )
    .reverse()
  if (!signed.length)
    return {
      why: `no comment there names a job of project ${settings.projectId} in a record this project signed (or this run's 'api-key' is not the one the code repository's run signs with)`
    }
  let identity: string | undefined
  try {
    identity = await docs.identity(pull)
  } catch (error) {
    return {
      warning: `'${Input.DocsToken}' could not tell who it is (${docsFailure(error).why}), so the record on ${pull.place} naming its job cannot be trusted and nothing is sent to it. Set '${Input.DocsToken}' to the same secret as the code repository's workflow uses.`
    }
  }
  if (!identity)
    return {
      warning: `GitHub did not say who '${Input.DocsToken}' is, so the record on ${pull.place} naming its job cannot be trusted and nothing is sent to it.`
    }
  const trusted = signed.find(c => botName(c.author) === botName(identity))
  if (trusted) return { found: trusted.record }
  return {
    why: `the record there was written by @${safeLogin(signed[0]?.author ?? '')}, not by the '${Input.DocsToken}' identity @${safeLogin(identity)}`,
    forged: true
  }
}

/** A login as a notice shows it: GitHub's characters only. */
export const safeLogin = (login: string): string =>
  /^[A-Za-z0-9][A-Za-z0-9-]{0,38}(\[bot\])?$/.test(login) ? login : 'someone'

/**
 * The job a pull request's record names, signed for it with this project's key, whoever posted it:
 * only the action writes such a record (docs-pr-record.ts), so the pull request is a docs pull
 * request of the agent. Enough to tell which action takes a comment there, never to send one.
 */
export async function recordedDocsJob(
  github: Pick<GitHubApi, 'listComments'>,
  pull: { number: number; place: string },
  settings: { apiKey: string; projectId: string }
): Promise<string | undefined> {
  const records = new DocsPrRecords(settings.apiKey)
  for (const comment of await github.listComments(pull.number)) {
    const record = records.read(comment.body, pull.place)
    if (record?.project === settings.projectId && SERVICE_ID.test(record.job)) return record.job
  }
  return undefined
}

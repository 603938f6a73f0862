import { type GitHubApi, describeGitHubError } from '../github/api.js'
import type { RunEvent } from '../github/event.js'
import type { AgentJob } from '../mintlify/agent-jobs.js'
import { codeSpan, markdownLink } from '../runner/markdown.js'
import { docsPulls } from '../agent/docs-repository.js'
import type { ChangeBatch } from '../agent/batch.js'
import type { ChangeSettings, Settings } from '../agent/settings.js'
import type { AfterJobDeps, OwnAfterJob } from '../agent/after-job.js'
import { errorText } from '../runner/errors.js'
import { requestAuthors } from './reviewers.js'

/** Pull requests of a batch told about their docs pull request, besides the event's own. */
const MAX_SOURCE_COMMENTS = 5

/**
 * The batch's other pull requests (caught up from runs that did not get to run) each get a short
 * comment with the docs pull request, once there is one: a few, the dashboard lists them all.
 */
async function tellSources(
  github: GitHubApi,
  batch: ChangeBatch,
  job: AgentJob,
  { commented, runUrl, log }: { commented?: number; runUrl: string; log: AfterJobDeps['log'] }
): Promise<void> {
  // A docs project's pull requests are in other repositories, which the run's token may only read.
  if (!job.prLink || batch.parts) return
  const others = batch.pulls.filter(p => p.number !== commented).slice(0, MAX_SOURCE_COMMENTS)
  for (const pull of others) {
    try {
      await github.createComment(pull.number, sourceComment(job, runUrl))
    } catch (error) {
      log.warning(
        `Could not comment on #${pull.number} with its docs pull request: ${describeGitHubError(error)}.`
      )
    }
  }
}

/** The short comment on a caught-up pull request: where its docs went. */
function sourceComment(job: AgentJob, runUrl: string): string {
  const link = markdownLink(job.prLink ?? '', job.prLink)
  const run = runUrl ? ` · ${markdownLink('workflow run', runUrl)}` : ''
  return `📝 **Mintlify agent** documented this change together with others in ${link} · job ${codeSpan(job.id)}${run}`
}

/** `reviewers: authors`: the batch's authors are asked to review the docs pull request. */
async function requestReviewers(
  batch: ChangeBatch,
  job: AgentJob,
  settings: Pick<ChangeSettings, 'reviewers' | 'docsToken'>,
  event: RunEvent,
  deps: AfterJobDeps
): Promise<void> {
  if (settings.reviewers !== 'authors' || !settings.docsToken || !job.prLink) return
  await requestAuthors(batch, job.prLink, {
    docs: docsPulls(settings, event.apiUrl, deps),
    serverUrl: event.serverUrl,
    log: deps.log
  })
}

/**
 * What a change run does of its own once its job has a docs pull request: the batch's other pull
 * requests hear where their docs went (not with `comment: false`, nor for a change on its own),
 * and with `reviewers: authors` their authors are asked to review it.
 */
export const changesAfterJob: OwnAfterJob<Settings> = async (settings, event, ended, deps) => {
  const { job, run } = ended
  const changes = run.changes
  if (!changes) return
  if (changes.tellSources && settings.comment !== 'false') {
    const github = deps.session.repository(settings.githubToken, event)
    await tellSources(github, changes.batch, job, {
      commented: changes.commented,
      runUrl: event.runUrl,
      log: deps.log
    })
  }
  await requestReviewers(changes.batch, job, settings, event, deps).catch(error =>
    deps.log.warning(`Could not request reviewers on the docs pull request: ${errorText(error)}`)
  )
}

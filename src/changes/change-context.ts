import type { GitHubApi } from '../github/api.js'
import type { RunEvent } from '../github/event.js'
import { LiveComment } from '../agent/comment/live-comment.js'
import { docsPulls } from '../agent/docs-repository.js'
import {
  type PreparedRun,
  type RunAbout,
  type StoppedRun,
  skippedRun
} from '../agent/prepared-run.js'
import type { ChangeBatch } from '../agent/batch.js'
import { ChangeReader } from './change-reader.js'
import { type ChangeRules, ownPull } from './change-rules.js'
import type { ChangeRunSettings, RunDeps } from './change-settings.js'
import type { FoldContext } from './fold.js'

/** A change run that starts nothing, and why. */
export const skipped = (why: string, source?: string, about: Partial<RunAbout> = {}): StoppedRun =>
  skippedRun(why, { source, ...about })

/**
 * What both kinds of change run share: the inputs, the event, GitHub and the reader, where the live
 * comment goes, and how a re-run resumes its first attempt's job.
 */
export class ChangeContext {
  readonly reader: ChangeReader

  constructor(
    readonly settings: ChangeRunSettings,
    readonly event: RunEvent,
    readonly deps: RunDeps,
    readonly github: GitHubApi,
    readonly rules: ChangeRules
  ) {
    this.reader = new ChangeReader(settings, event, deps, github, rules)
  }

  /** How a fold decision reads the earlier job and its docs pull request. */
  foldContext(): FoldContext {
    const { settings, event, deps } = this
    return {
      readJob: deps.readJob,
      serverUrl: event.serverUrl,
      docs: docsPulls(settings, event.apiUrl, deps, { orRunToken: true })
    }
  }

  /** The event's own pull request gets the live comment; `issue-number` overrides, `comment: false` none. */
  commentTarget(batch: ChangeBatch): number | undefined {
    const { settings, event } = this
    if (settings.comment === 'false') return undefined
    // A docs project's pull requests are in other repositories: only `issue-number` is here.
    if (batch.parts) return settings.issueNumber
    const own = ownPull(batch, event.pullRequest?.number)
    const target = settings.issueNumber ?? own
    if (settings.comment === 'true' && target === undefined)
      this.deps.log.warning('No pull request to comment on: the changes came through none.')
    return target
  }

  comment(target: number, docsPr?: string, folded = false): LiveComment {
    const { event, settings, deps } = this
    return new LiveComment(
      this.github,
      target,
      { run: event.runId, attempt: event.runAttempt, kind: 'change', project: settings.projectId },
      { runUrl: event.runUrl, projectId: settings.projectId },
      deps.log,
      deps.saveState,
      deps.markers,
      folded ? { docsPr } : undefined
    )
  }

  resume(
    jobId: string,
    batch: ChangeBatch | undefined,
    comment: LiveComment | undefined,
    extra: Partial<RunAbout> = {}
  ): PreparedRun {
    this.deps.log.info(
      `Attempt ${this.event.runAttempt} of this run resumes job ${jobId}, started by an earlier attempt; nothing is sent again.`
    )
    // The prompt is left out on purpose: a re-run waits, it never resends (`prompt` included).
    return {
      notices: [],
      ...extra,
      request: { jobId, prompt: undefined },
      comment,
      followUp: false,
      batch,
      kind: 'follow-up'
    }
  }
}

import { ExplainedError } from '../../runner/errors.js'
import type { AgentJob } from '../../mintlify/agent-jobs.js'
import { type Logger } from '../../runner/logger.js'
import type { Result } from '../outcome.js'
import {
  type GitHubApi,
  describeGitHubError,
  permissionHint,
  refusedAccess
} from '../../github/api.js'
import {
  type CommentContext,
  failureBody,
  outcomeBody,
  lostRunBody,
  startedBy,
  startingBody,
  workingBody
} from './comment-body.js'
import { Input } from '../names.js'
import type { Marker, Markers } from './marker.js'

/** What the post step needs to finalise the comment if the main step was killed. */
export interface CommentState {
  issue: number
  commentId: number
  job: AgentJob
  ctx: CommentContext
  final: boolean
}

/** A job recorded on the issue by an earlier run (or an earlier attempt of this one). */
export interface Recorded {
  marker: Marker
  commentId: number
}

/** What the issue shows of the run, as the job summary says it. */
export interface CommentOutcome {
  issue: number
  /** The comment this run last wrote, when a write went through. */
  commentId?: number
  /** Why the last write failed (e.g. `HTTP 403`): the issue does not show the run's last word. */
  error?: string
  /** What to do about it, when known (a permission to give). */
  hint?: string
  /** What the comment shows: the job, or a failure before any job. */
  shows: 'job' | 'failure'
}

/**
 * The one comment per job on the triggering issue, edited as the job moves on. Every failure
 * becomes a warning: the job and its outputs matter more than the comment.
 */
export class LiveComment {
  private id?: number
  /** The record of the comment adopted: kept whole (kind, project, docs pull request) when rewritten. */
  private adopted?: Marker
  private maybeCreated = false
  /** The comment this run last wrote, and how its last write went. */
  private written?: number
  private lastError?: { error: string; hint: string }
  private shows: CommentOutcome['shows'] = 'job'
  /** The comment holds only "starting" (claim): a failure before the job replaces it. */
  private starting = false
  /** The bodies of the recorded comments, to write an adopted one back unchanged (claim). */
  private readonly bodies = new Map<number, string>()
  /** The issue's comments could not be read: whether a job is recorded there is unknown. */
  unreadable = false
  /** Starting comments of earlier runs that never said more: this run's claim says so on them. */
  private lost: { id: number; runUrl?: string }[] = []

  constructor(
    private readonly api: GitHubApi,
    private readonly issue: number,
    private readonly marker: Omit<Marker, 'job'>,
    /** The run's link and the Mintlify project, for every body. */
    private readonly where: Pick<CommentContext, 'runUrl' | 'projectId'>,
    private readonly log: Logger,
    private readonly save: (state: CommentState) => void,
    /** Signs the markers this comment writes, and reads those of earlier runs. */
    private readonly markers: Markers,
    /** A code change folded into an earlier job: the comment says so and links its docs pull request. */
    private fold?: CommentContext['fold']
  ) {}

  /** The follow-up was refused and a new job started instead: the comment stops saying "folded". */
  unfold(): void {
    this.fold = undefined
  }

  /**
   * The jobs recorded on the issue, newest first: only markers this action signed for this issue
   * (marker.ts), in comments written by a bot, count, so no one can plant, copy or edit one.
   */
  async recorded(): Promise<Recorded[]> {
    try {
      const comments = await this.api.listComments(this.issue)
      const found: Recorded[] = []
      this.lost = []
      for (const comment of [...comments].reverse()) {
        const started = comment.authorType === 'Bot' ? startedBy(comment.body) : undefined
        if (started) this.lost.push({ id: comment.id, ...started })
        const marker =
          comment.authorType === 'Bot' ? this.markers.read(comment.body, this.issue) : undefined
        if (marker) {
          found.push({ marker, commentId: comment.id })
          this.bodies.set(comment.id, comment.body)
        }
      }
      return found
    } catch (error) {
      this.warn('read the comments of', error)
      this.unreadable = true
      return []
    }
  }

  /**
   * Edit this comment instead of creating one (a resumed job or a follow-up). With its record, the
   * rewritten record keeps what it said (kind, project, docs pull request).
   */
  adopt(commentId: number, record?: Marker): void {
    this.id = commentId
    this.adopted = record
  }

  /**
   * Before the run spends anything (a new job, a follow-up): a first word on the issue, which
   * proves the token may comment there. GitHub refusing it stops the run before the service is
   * asked, naming the permission to give: a job whose outcome cannot reach the issue is not started.
   * With `must` (`comment: true`), any failed write stops it; otherwise it is a warning, as later
   * writes are. An adopted comment is written back as it is, unchanged.
   */
  async claim(must: boolean): Promise<void> {
    const adopted = this.id === undefined ? undefined : this.bodies.get(this.id)
    try {
      if (this.id === undefined) {
        this.id = await this.create(startingBody(this.where))
        this.starting = true
      } else if (adopted !== undefined) await this.api.updateComment(this.id, adopted)
      else return
      this.written = this.id
      await this.tellLost()
    } catch (error) {
      const why = describeGitHubError(error)
      const nothing = 'so nothing was sent to the agent and nothing was spent'
      if (refusedAccess(error))
        throw new ExplainedError(
          `Could not comment on #${this.issue} (${why}), ${nothing}: the outcome could not be told there. ${permissionHint(COMMENT_GRANT)} Or set '${Input.Comment}: false' to run without a comment.`
        )
      if (must)
        throw new ExplainedError(
          `Could not comment on #${this.issue} (${why}), and '${Input.Comment}' is 'true': the run must comment, ${nothing}. Re-run the workflow once GitHub answers.`
        )
      this.lastError = this.warn('comment on', error)
    }
  }

  /**
   * An earlier run's starting comment still says "starting": that run ended before it said more
   * (the post step finalises only a comment whose job it knows). Said once this run may comment;
   * a failure is a warning. A run holding its comment cannot be among them, as the examples run one
   * workflow per issue at a time (a concurrency group).
   */
  private async tellLost(): Promise<void> {
    for (const lost of this.lost.splice(0)) {
      if (lost.id === this.id) continue
      try {
        await this.api.updateComment(lost.id, lostRunBody(lost, this.where))
        this.log.info(
          `Comment ${lost.id} on #${this.issue} said an earlier run was starting: it says that run stopped now.`
        )
      } catch (error) {
        // Another identity's comment (an App's, when this run uses GITHUB_TOKEN) is not its to edit.
        this.log.warning(
          `Could not say on comment ${lost.id} of #${this.issue} that its run stopped: ${describeGitHubError(error)}.`
        )
      }
    }
  }

  async working(job: AgentJob, followUp: boolean): Promise<void> {
    await this.show(job, workingBody(this.ctx(job), job, followUp, this.sign), false)
  }

  async finish(job: AgentJob, result: Result | 'stopped'): Promise<void> {
    await this.show(job, outcomeBody(this.ctx(job), job, result, this.sign), true)
  }

  /**
   * The run failed before its job: say so on the issue, in a comment of its own (an adopted comment
   * keeps the job it records).
   */
  async failed(reason: string): Promise<void> {
    this.shows = 'failure'
    const body = failureBody(this.where, reason)
    // The "starting" comment says no more than that: the failure takes its place.
    const replaces = this.starting ? this.id : undefined
    try {
      if (replaces !== undefined) await this.api.updateComment(replaces, body)
      this.written = replaces ?? (await this.api.createComment(this.issue, body))
      this.lastError = undefined
    } catch (error) {
      this.written = replaces
      this.lastError = this.warn(
        replaces === undefined ? 'comment on' : 'update the comment on',
        error
      )
    }
  }

  /** What the issue shows of the run; undefined when nothing was written or tried. */
  outcome(): CommentOutcome | undefined {
    if (this.written === undefined && !this.lastError) return undefined
    return {
      issue: this.issue,
      commentId: this.written,
      shows: this.shows,
      ...this.lastError
    }
  }

  private ctx(job: AgentJob): CommentContext {
    const marker: Marker = { ...this.marker, job: job.id }
    if (this.markers.step) marker.step = this.markers.step
    if (this.adopted?.kind === 'change') marker.kind = 'change'
    if (this.adopted?.project) marker.project ??= this.adopted.project
    // A change run records the docs pull request once known, so the next change can find it open:
    // the service's link when it gives one, else the one recorded (which came from the service).
    if (marker.kind === 'change')
      marker.pr = job.prLink || this.fold?.docsPr || this.adopted?.pr || undefined
    return { marker, ...this.where, ...(this.fold ? { fold: this.fold } : {}) }
  }

  /** The marker, signed for this issue. */
  private sign = (marker: Marker): string => this.markers.render(marker, this.issue)

  private async show(job: AgentJob, body: string, final: boolean): Promise<void> {
    try {
      // A create that got no answer may have been made: find it rather than post a second one.
      if (this.id === undefined && this.maybeCreated) this.id = await this.ownComment(job)
      if (this.id === undefined) this.id = await this.create(body)
      else await this.api.updateComment(this.id, body)
      this.starting = false
      this.written = this.id
      this.lastError = undefined
      this.save({ issue: this.issue, commentId: this.id, job, ctx: this.ctx(job), final })
    } catch (error) {
      this.lastError = this.warn(
        this.id === undefined ? 'comment on' : 'update the comment on',
        error
      )
    }
  }

  /** Creates the comment; with no answer at all (a time limit, a cancel), it may exist all the same. */
  private async create(body: string): Promise<number> {
    try {
      return await this.api.createComment(this.issue, body)
    } catch (error) {
      if (!isHttpAnswer(error)) this.maybeCreated = true
      throw error
    }
  }

  /** This run's comment about `job`, if an earlier create went through after all. */
  private async ownComment(job: AgentJob): Promise<number | undefined> {
    this.maybeCreated = false
    const mine = (await this.recorded()).find(
      ({ marker }) =>
        marker.run === this.marker.run && marker.step === this.markers.step && marker.job === job.id
    )
    return mine?.commentId
  }

  /** Warns that a write failed; returns why, and the permission to give when GitHub refused it. */
  private warn(what: string, error: unknown): { error: string; hint: string } {
    const hint = refusedAccess(error) ? ` ${permissionHint(COMMENT_GRANT)}` : ''
    const why = describeGitHubError(error)
    this.log.warning(`Could not ${what} #${this.issue}: ${why}.${hint}`)
    return { error: why, hint }
  }
}

/** What a workflow grants so that the action may comment on issues and pull requests. */
const COMMENT_GRANT = "'issues: write' (and 'pull-requests: write' on pull requests)"

/** GitHub answered (with an error status): the call was not carried out. */
const isHttpAnswer = (error: unknown): boolean =>
  Boolean((error as { response?: unknown }).response)

/**
 * A re-run finds the job its first attempt started from the comments; when they cannot be read, a
 * new job could be a second one.
 */
export function unknownEarlierJob(
  event: { runAttempt: number },
  where: string,
  what = 'the comments of'
): ExplainedError {
  return new ExplainedError(
    `Attempt ${event.runAttempt} of this run could not read ${what} ${where} to find the job an earlier attempt may have started, so it does not start another. Look for it among the agent jobs on the Mintlify dashboard, or re-run once GitHub answers.`
  )
}

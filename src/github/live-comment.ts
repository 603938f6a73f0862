import type { AgentJob } from '../mintlify/agent-jobs.js'
import type { Logger } from '../action/clock.js'
import type { Result } from '../mintlify/outcome.js'
import type { GitHubApi } from './api.js'
import { type CommentContext, outcomeBody, workingBody } from './comment-body.js'
import { type Marker, parseMarker } from './marker.js'

/** What the post step needs to finalise the comment if the main step was killed. */
export interface CommentState {
  issue: number
  commentId: number
  job: AgentJob
  ctx: CommentContext
  final: boolean
}

/** A job recorded on the issue by an earlier run. */
export interface Recorded {
  marker: Marker
  commentId: number
}

/**
 * The one comment per job on the triggering issue, edited as the job moves on. Every failure
 * becomes a warning: the job and its outputs matter more than the comment.
 */
export class LiveComment {
  private id?: number

  constructor(
    private readonly api: GitHubApi,
    private readonly issue: number,
    private readonly marker: Omit<Marker, 'job'>,
    /** The run's link and the Mintlify project, for every body. */
    private readonly where: Pick<CommentContext, 'runUrl' | 'projectId'>,
    private readonly log: Logger,
    private readonly save: (state: CommentState) => void,
    /** A code change folded into an earlier job: the comment says so and links its docs pull request. */
    private fold?: CommentContext['fold']
  ) {}

  /** The follow-up was refused and a new job started instead: the comment stops saying "folded". */
  unfold(): void {
    this.fold = undefined
  }

  /** The latest job recorded on the issue; only comments written by a bot count, so no one can plant one. */
  async recorded(): Promise<Recorded | undefined> {
    try {
      const comments = await this.api.listComments(this.issue)
      for (const comment of [...comments].reverse()) {
        const marker = comment.authorType === 'Bot' ? parseMarker(comment.body) : undefined
        if (marker) return { marker, commentId: comment.id }
      }
    } catch (error) {
      this.warn('read the comments of', error)
    }
    return undefined
  }

  /** Edit this comment instead of creating one (a resumed job or a follow-up). */
  adopt(commentId: number): void {
    this.id = commentId
  }

  async working(job: AgentJob, followUp: boolean): Promise<void> {
    await this.show(job, workingBody(this.ctx(job), job, followUp), false)
  }

  async finish(job: AgentJob, result: Result | 'stopped'): Promise<void> {
    await this.show(job, outcomeBody(this.ctx(job), job, result), true)
  }

  private ctx(job: AgentJob): CommentContext {
    const marker: Marker = { ...this.marker, job: job.id }
    // A change run records the docs pull request once known, so the next change can find it open.
    if (marker.kind === 'change') marker.pr = job.prLink || this.fold?.docsPr || undefined
    return { marker, ...this.where, ...(this.fold ? { fold: this.fold } : {}) }
  }

  private async show(job: AgentJob, body: string, final: boolean): Promise<void> {
    try {
      if (this.id === undefined) this.id = await this.api.createComment(this.issue, body)
      else await this.api.updateComment(this.id, body)
      this.save({ issue: this.issue, commentId: this.id, job, ctx: this.ctx(job), final })
    } catch (error) {
      this.warn(this.id === undefined ? 'comment on' : 'update the comment on', error)
    }
  }

  private warn(what: string, error: unknown): void {
    const status = (error as { status?: number }).status
    const hint =
      status === 403 || status === 404
        ? " Give the workflow 'issues: write' (and 'pull-requests: write' for pull requests)."
        : ''
    this.log.warning(
      `Could not ${what} #${this.issue}: ${status ? `HTTP ${status}` : error instanceof Error ? error.message : String(error)}.${hint}`
    )
  }
}

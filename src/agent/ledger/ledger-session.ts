import type { AgentJob } from '../../mintlify/agent-jobs.js'
import type { ChangeBatch } from '../batch.js'
import { repositoryKey } from '../../policy/code-repositories.js'
import type { FoldDecision } from './fold.js'
import { type BudgetState, type Limits, budgetStates, budgetSummary, tightest } from './budget.js'
import type { Dashboard } from './dashboard.js'
import { newBatchId } from './approval-box.js'
import { namesOf, settleListed, setWatermark, watermarkOf } from './watermarks.js'
import type { DocsPullUpdate } from './expiry.js'
import {
  type ChangeRef,
  type LedgerJob,
  type ProjectLedger,
  type RunEntry,
  type Uncertain,
  type Waiting,
  keptUncertain,
  ledgerTitle,
  noteStart
} from '../../records/ledger.js'

/**
 * What the dashboard records of a run's job, moment by moment: the one shape of every run the
 * ledger counts (a change run's batch, a run counted outside it). The frame records `accepted` the
 * moment the service accepts (so a run killed while waiting has it), the rest once the job ends.
 */
export interface JobRecorder {
  /** The service accepted the new job or the follow-up. */
  accepted(job: AgentJob, followUp: boolean): Promise<void>
  /** The write's answer never came: it may have started a job. */
  uncertain(followUp: boolean, why: string, jobId?: string): Promise<void>
  /** The run ended with this result. */
  finished(job: AgentJob, result: string): Promise<void>
}

/** This run as the ledger knows it. */
export interface LedgerRun {
  /** GITHUB_RUN_ID and the run's page. */
  id: string
  url: string
  attempt: number
  /** The workflow job and step: a matrix or a second step is not this one. */
  step: string
}

/** The changes of a batch as the ledger keeps them: the commit, the pull request, a short title. */
export function changeRefs(batch: Pick<ChangeBatch, 'pulls' | 'commits'>): ChangeRef[] {
  return [
    ...batch.pulls.map(p => ({
      sha: p.mergeCommit ?? '',
      pr: p.number,
      title: ledgerTitle(p.title),
      url: p.url,
      ...(p.repository ? { repo: p.repository } : {})
    })),
    ...batch.commits.map(c => ({
      sha: c.sha,
      title: ledgerTitle(c.message.split('\n')[0] ?? ''),
      ...(c.repository ? { repo: c.repository } : {})
    }))
  ]
}

/**
 * The run other than `runId` that covered `head` already (GitHub delivered the event again). A run
 * that left its changes waiting covered nothing: a later run (a tick, a schedule) takes them.
 */
export function coveringRun(
  project: ProjectLedger,
  head: string,
  runId: string
): RunEntry | undefined {
  return project.runs.find(r => r.head === head && r.run !== runId && r.result !== 'waiting')
}

/**
 * One run's dealings with the ledger: what it reads before deciding, and what it writes once the
 * service has accepted a write (never before), so that an overlapping run sees it at once.
 */
export class LedgerSession {
  /** What a fold decision learnt of an earlier job, written with the run's next write. */
  private seen?: FoldDecision['seen']
  /** What other reads learnt of the ledger's jobs (`max-open`), written with the run's next write. */
  private updates: DocsPullUpdate[] = []
  /** Who ticked the batch this run hands over (`approval: dashboard`): named in its run entry. */
  approvedBy?: string
  /**
   * The uncertain entries whose changes this run sends again (their boxes ticked): they leave the
   * ledger once sent, and the last documented commit and the waiting batch stay as they are.
   */
  resending?: string[]

  constructor(
    private readonly dashboard: Dashboard,
    private readonly projectId: string,
    private readonly run: LedgerRun,
    private readonly now: () => number,
    readonly limits?: Limits
  ) {
    const read = dashboard.project(projectId)
    this.documentedAtStart = {
      sha: read.documented?.sha,
      repositories: Object.fromEntries(
        Object.entries(read.repositories ?? {}).map(([key, mark]) => [key, mark.sha])
      )
    }
  }

  /**
   * The last documented commit this run read its batch from: the only one its head is known to be
   * ahead of (or, on a rewritten history, to replace).
   */
  private readonly documentedAtStart: DocumentedAtStart

  /** The changes of the uncertain entries this run sends again. */
  resent(): ChangeRef[] {
    const ids = this.resending ?? []
    return this.project.uncertain.filter(u => u.id && ids.includes(u.id)).flatMap(u => u.changes)
  }

  /** The project's part as read at the start. */
  get project(): ProjectLedger {
    return this.dashboard.project(this.projectId)
  }

  get notices(): string[] {
    return this.dashboard.notices
  }

  get url(): string | undefined {
    return this.dashboard.url
  }

  /** The entry an earlier attempt of this run's step left, with the job it started. */
  earlierAttempt(): RunEntry | undefined {
    return [...this.project.runs]
      .reverse()
      .find(r => r.run === this.run.id && r.step === this.run.step && r.job)
  }

  /** A run before this one covered `head` already (see coveringRun). */
  coveredBy(head: string): RunEntry | undefined {
    return coveringRun(this.project, head, this.run.id)
  }

  /** The budget that binds first (`max-jobs`, `max-credits`), or none when the policy sets none. */
  budgetState(): BudgetState | undefined {
    return tightest(budgetStates(this.project.spend, this.limits, this.now()))
  }

  /** Where every budget stands, in one line; none without a budget. */
  budgetSummary(): string | undefined {
    return budgetSummary(this.project.spend, this.limits, this.now())
  }

  ensureWritable(): Promise<void> {
    return this.dashboard.ensureWritable()
  }

  /** Keeps what the fold decision learnt of an earlier job for the next write. */
  noteSeen(seen?: FoldDecision['seen']): void {
    this.seen = seen
  }

  /** Keeps what reads of the ledger's jobs learnt (`max-open`) for the next write. */
  noteUpdates(updates: DocsPullUpdate[]): void {
    this.updates.push(...updates)
  }

  /** What the dashboard records of the job a batch is handed over to. */
  recorderFor(batch: ChangeBatch): JobRecorder {
    return {
      accepted: (job, followUp) => this.accepted(job, batch, followUp),
      uncertain: (followUp, why, jobId) =>
        this.uncertain(batch, followUp ? 'follow-up' : 'new-job', why, jobId),
      finished: (job, result) => this.finished(job, result)
    }
  }

  /** The service accepted a new job or a follow-up: the changes are handed over. */
  async accepted(job: AgentJob, batch: ChangeBatch, followUp: boolean): Promise<void> {
    const at = this.now()
    const changes = changeRefs(batch)
    await this.dashboard.write(
      this.projectId,
      project => {
        this.handedOver(project, batch, at)
        noteStart(project, at)
        this.markSeen(project)
        const known = project.jobs.find(j => j.id === job.id)
        if (followUp && known) {
          known.changes.push(...changes)
          known.state = job.status === 'active' ? 'active' : known.state
        } else
          project.jobs.push({
            id: job.id,
            prLink: job.prLink ?? undefined,
            state: job.status === 'active' ? 'active' : 'started',
            startedAt: at,
            changes,
            moreChanges: 0
          })
        project.runs.push(
          this.entry(
            at,
            batch,
            followUp ? 'follow-up sent' : 'job started',
            job.id,
            this.approvedBy ? `approved by @${this.approvedBy}` : ''
          )
        )
      },
      // It records a start: read back, so that no overlapping run's write takes it away.
      { confirm: true }
    )
  }

  /**
   * A job or follow-up an issue started: a person's request, never held back by the budget, but it
   * counts against it. Issue jobs are not listed for folding: their docs pull request stays theirs.
   */
  async counted(
    job: Pick<AgentJob, 'id'> | undefined,
    followUp: boolean,
    note: string
  ): Promise<void> {
    const at = this.now()
    await this.dashboard.write(
      this.projectId,
      project => {
        noteStart(project, at)
        project.runs.push({
          at,
          url: this.run.url,
          run: this.run.id,
          step: this.run.step,
          result: followUp ? 'follow-up sent' : job ? 'job started' : 'uncertain',
          job: job?.id,
          changes: 0,
          note: note.slice(0, 300)
        })
      },
      { confirm: true }
    )
  }

  /**
   * What this run read of the ledger's docs pull requests (merged, closed, still open) and which
   * it closed for `expire-after`: an expired one is no longer folded into.
   */
  async docsPullsSeen(updates: DocsPullUpdate[], expired: string[], note: string): Promise<void> {
    if (!updates.length) return
    const at = this.now()
    await this.dashboard.write(this.projectId, project => {
      applyUpdates(project, updates)
      if (expired.length)
        project.runs.push({
          at,
          url: this.run.url,
          run: this.run.id,
          step: this.run.step,
          result: 'expired',
          changes: 0,
          note: note.slice(0, 300)
        })
    })
  }

  /** The answer to a write never came: it may have started a job, so it is not sent again by itself. */
  async uncertain(batch: ChangeBatch, what: 'new-job' | 'follow-up', why: string, jobId?: string) {
    const at = this.now()
    await this.dashboard.write(
      this.projectId,
      project => {
        this.handedOver(project, batch, at)
        noteStart(project, at)
        const id = newBatchId(at)
        project.uncertain.push(
          keptUncertain({ id, at, what, job: jobId, changes: changeRefs(batch), why })
        )
        project.runs.push(this.entry(at, batch, 'uncertain', jobId, why))
      },
      { confirm: true }
    )
  }

  /** The run ended: what became of the job, for people and for the next fold. */
  async finished(job: AgentJob, result: string): Promise<void> {
    await this.dashboard.write(this.projectId, project => {
      const known = project.jobs.find(j => j.id === job.id)
      if (known) {
        if (job.prLink) known.prLink = job.prLink
        known.state =
          job.status === 'active'
            ? 'active'
            : job.status === 'completed' && job.prLink
              ? 'open'
              : (job.status ?? known.state)
      }
      const entry = [...project.runs].reverse().find(r => r.run === this.run.id && r.job === job.id)
      if (entry) entry.result = result
    })
  }

  /**
   * A run that hands nothing over still records what it decided: the changes it found nothing to
   * document in (the last documented commit moves past them), or the changes that wait.
   */
  async recordDecision(decision: {
    batch: ChangeBatch
    result: string
    note: string
    /** The changes wait (over budget): the last documented commit stays where it is. */
    waiting?: string
    /** With `approval: dashboard`: the batch's id, approval and what it would do, kept or set. */
    approval?: Partial<Waiting>
    /** On an empty ledger, the commit the waiting batch's range starts after. */
    base?: string
  }): Promise<void> {
    const at = this.now()
    const { batch } = decision
    await this.dashboard.write(
      this.projectId,
      project => {
        if (decision.base && !project.documented) project.documented = { sha: decision.base, at }
        // Changes sent again that must wait (a limit) stay uncertain, their boxes unticked.
        if (!decision.waiting) this.handedOver(project, batch, at)
        else if (!this.resending)
          project.waiting = {
            ...keptApproval(project.waiting),
            changes: changeRefs(batch),
            why: decision.waiting,
            since: at,
            ...decision.approval
          }
        if (decision.waiting && !this.resending) {
          noteBacklog(project, batch)
          markFirstSeen(project, batch, at)
        }
        this.markSeen(project)
        project.runs.push(this.entry(at, batch, decision.result, undefined, decision.note))
      },
      { untick: Boolean(decision.waiting && this.resending) }
    )
  }

  /** A tick on the dashboard that started nothing (refused, or on a batch that no longer waits). */
  async recordTick(result: string, note: string): Promise<void> {
    const at = this.now()
    await this.dashboard.write(
      this.projectId,
      project => {
        project.runs.push({
          at,
          url: this.run.url,
          run: this.run.id,
          step: this.run.step,
          result,
          changes: 0,
          note: note.slice(0, 300)
        })
      },
      { untick: true }
    )
  }

  /**
   * The batch is handed over (accepted, or perhaps): the last documented commit moves to its head
   * and the waiting changes, which were in it, no longer wait, nor does their approval. A batch sent
   * again from uncertain entries leaves both alone and takes those entries off instead: once.
   */
  private handedOver(project: ProjectLedger, batch: ChangeBatch, at: number): void {
    const resent = this.resending
    if (resent) {
      project.uncertain = afterResend(project, resent, batch, at)
      return
    }
    markDocumented(project, batch, at, this.documentedAtStart)
    project.waiting = null
    noteBacklog(project, batch)
  }

  /** What a fold decision learnt of an earlier job (its docs pull request merged, say). */
  private markSeen(project: ProjectLedger): void {
    applyUpdates(project, this.updates)
    const seen = this.seen
    const known = seen && project.jobs.find(j => j.id === seen.jobId)
    if (!known || !seen) return
    known.state = seen.state
    if (seen.prLink) known.prLink = seen.prLink
    if (seen.prCreatedAt) known.prCreatedAt = seen.prCreatedAt
    if (seen.endedAt) known.endedAt = seen.endedAt
  }

  private entry(at: number, batch: ChangeBatch, result: string, job?: string, note = ''): RunEntry {
    return {
      at,
      url: this.run.url,
      run: this.run.id,
      step: this.run.step,
      head: batch.head || undefined,
      result,
      job,
      changes: batch.pulls.length + batch.commits.length,
      note: [note, leftOut(batch)].filter(Boolean).join('; ').slice(0, 300)
    }
  }
}

/**
 * The uncertain entries after their changes were sent again: of a docs project's entry, the changes
 * this run handed over or left out by a rule leave it; those of a repository it could not read, or
 * that the prompt had no room for, stay under a new box (unticked) for a later run. A repository
 * read with none of its changes handled (pull requests GitHub no longer has) gives its up.
 */
function afterResend(
  project: ProjectLedger,
  resent: readonly string[],
  batch: Pick<ChangeBatch, 'parts' | 'pulls' | 'commits' | 'skipped'>,
  at: number
): Uncertain[] {
  // An entry names its changes as they were sent: a repository renamed since is read under its
  // new name, and each name its watermark knows it by is that repository.
  const alias = new Map<string, string>()
  for (const part of batch.parts ?? []) {
    const mark = watermarkOf(project, part.name, part.id)?.mark
    for (const name of namesOf(part.name, mark)) alias.set(name, repositoryKey(part.name))
  }
  const keyOf = (repo: string | undefined): string => {
    const key = repositoryKey(repo ?? '')
    return alias.get(key) ?? key
  }
  const read = batch.parts && new Set(batch.parts.map(p => repositoryKey(p.name)))
  const handled = new Set([
    ...batch.pulls.map(p => `${keyOf(p.repository)}#${p.number}`),
    ...batch.commits.map(c => `${keyOf(c.repository)}@${c.sha}`),
    ...batch.skipped.map(s => s.sha)
  ])
  const isHandled = (c: ChangeRef): boolean =>
    handled.has(c.sha) ||
    handled.has(c.pr === undefined ? `${keyOf(c.repo)}@${c.sha}` : `${keyOf(c.repo)}#${c.pr}`)
  return project.uncertain.flatMap(entry => {
    if (!entry.id || !resent.includes(entry.id)) return [entry]
    if (!read) return []
    const progressed = new Set(
      entry.changes.filter(c => c.repo && isHandled(c)).map(c => keyOf(c.repo))
    )
    const left = entry.changes.filter(c => {
      if (!c.repo) return false
      const key = keyOf(c.repo)
      return !read.has(key) || (progressed.has(key) && !isHandled(c))
    })
    if (!left.length) return []
    return [{ ...entry, id: newBatchId(at), changes: left }]
  })
}

/** The last documented commits a run read its batch from: of the repository, or of each one. */
interface DocumentedAtStart {
  sha?: string
  repositories: Record<string, string>
}

/**
 * The batch is handed over (or held nothing to document): the last documented commit moves to its
 * head; in a docs project of several repositories, each repository read moves to its own. One that
 * another run moved while this one ran stays where that run put it: this head is not known to be
 * ahead of it, and a watermark never moves backwards.
 */
function markDocumented(
  project: ProjectLedger,
  batch: ChangeBatch,
  at: number,
  start: DocumentedAtStart
): void {
  const unmoved = (current: string | undefined, read: string | undefined): boolean =>
    current === undefined || current === read
  if (!batch.parts) {
    if (unmoved(project.documented?.sha, start.sha)) project.documented = { sha: batch.head, at }
    return
  }
  for (const part of batch.parts) {
    const current = watermarkOf(project, part.name, part.id)
    const key = current?.key ?? repositoryKey(part.name)
    if (unmoved(current?.mark.sha, start.repositories[key]))
      setWatermark(project, part, part.head, at)
  }
  settleListed(project, batch, at)
}

/**
 * The batch waits: no watermark moves, but a repository seen for the first time gets the one its
 * range starts after, so that the next run reads the same range and the changes after it.
 */
function markFirstSeen(project: ProjectLedger, batch: ChangeBatch, at: number): void {
  if (!batch.parts) return
  for (const part of batch.parts) {
    const from = part.base ?? part.start
    if (!watermarkOf(project, part.name, part.id) && from) setWatermark(project, part, from, at)
  }
  settleListed(project, batch, at)
}

/** What reads learnt of the ledger's jobs: state, docs pull request and its times. */
export function applyUpdates(project: ProjectLedger, updates: readonly DocsPullUpdate[]): void {
  for (const update of updates) {
    const known = project.jobs.find(j => j.id === update.jobId)
    if (!known) continue
    known.state = update.state
    if (update.prLink) known.prLink = update.prLink
    if (update.prCreatedAt) known.prCreatedAt = update.prCreatedAt
    if (update.endedAt) known.endedAt = update.endedAt
    if (update.checkedAt) known.checkedAt = update.checkedAt
    noteTouch(known, update)
  }
}

/** How many changes the batch's run left beyond its bounds, for the next runs and the dashboard. */
function noteBacklog(project: ProjectLedger, batch: Pick<ChangeBatch, 'backlog'>): void {
  if (batch.backlog) project.backlog = batch.backlog
  else delete project.backlog
}

/** What a read learnt of people's work on the docs pull request: draft, a person's commit, kept open. */
function noteTouch(known: LedgerJob, update: DocsPullUpdate): void {
  if (update.draft) known.draft = true
  else if (update.draft === false) delete known.draft
  if (update.personCommitted !== undefined) known.personCommitted = update.personCommitted
  if (update.touchUnread) known.touchUnread = true
  if (update.kept) known.kept = update.kept
  // The first one read stays: a later first commit may be a person's rebase or squash.
  if (update.agentEmail && !known.agentEmail) known.agentEmail = update.agentEmail
}

/** A waiting batch's identity and approval stay while later changes join it. */
function keptApproval(waiting: Waiting | null): Partial<Waiting> {
  if (!waiting?.batch) return {}
  const { batch, approvedBy, approvedAt, wouldDo } = waiting
  return { batch, approvedBy, approvedAt, wouldDo }
}

const SHOWN_LEFT_OUT = 3

/** What the rules left out of a run's batch, by name: `left out: #12 changes no file that …`. */
function leftOut(batch: ChangeBatch): string {
  const { skipped } = batch
  if (!skipped.length) return ''
  const named = skipped.slice(0, SHOWN_LEFT_OUT).map(s => s.why.replace(/\.$/, ''))
  const more = skipped.length - named.length
  return `left out: ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}`
}

import {
  type GitHubApi,
  type GitHubSession,
  connectGitHub,
  describeGitHubError
} from '../../github/api.js'
import type { RunEvent } from '../../github/event.js'
import type { AgentJob } from '../../mintlify/agent-jobs.js'
import type { Clock } from '../../runner/clock.js'
import { CancelledError, ExplainedError, InputError, errorText } from '../../runner/errors.js'
import type { Logger } from '../../runner/logger.js'
import { codeSpan, markdownLink } from '../../runner/markdown.js'
import { bytes, counted } from '../../runner/text.js'
import { type CommentState, LiveComment, unknownEarlierJob } from '../comment/live-comment.js'
import type { Markers } from '../comment/marker.js'
import { Dashboard } from '../ledger/dashboard.js'
import { expireStale } from '../ledger/expiry.js'
import { refreshOutcomes } from '../ledger/outcomes.js'
import { LedgerSession } from '../ledger/ledger-session.js'
import { docsPulls } from '../docs-repository.js'
import { Input } from '../names.js'
import type { PreparedRun } from '../prepared-run.js'
import { RecordSigner } from '../../records/record.js'
import { trustRefusal } from '../trust-gate.js'
import { newBatchId } from '../ledger/approval-box.js'
import { awaitingWhy, judgeTick } from './approval.js'
import type { ChangeBatch } from '../batch.js'
import { readPull } from './change-batch.js'
import { type ChangePlan, planChange } from './change-plan.js'
import { ChangeReader } from './change-reader.js'
import { readProjectBatch } from './project-batch.js'
import { ESTIMATED_CREDITS_PER_RUN } from '../ledger/budget.js'
import type { ProjectLedger } from '../../records/ledger.js'
import { type ChangeRules, applyRules, batchSize, pullRefusal } from './change-rules.js'
import { type FoldDecision, LIVE, decideFold } from '../ledger/fold.js'
import { countOpen } from './open-limit.js'
import { requestAuthors } from './reviewers.js'
import type { ChangeSettings, TriggerSettings } from '../settings.js'

export interface RunDeps {
  log: Logger
  /** Paces GitHub's retries, and stamps the ledger: the runner's clock. */
  clock: Clock
  /** The run's GitHub connections, closed when it ends. */
  session?: GitHubSession
  saveState: (state: CommentState) => void
  signal?: AbortSignal
  /** Reads a job on the service: is an earlier batch's job still running? */
  readJob: (jobId: string) => Promise<AgentJob>
  /** Signs the markers of the live comments this run writes, and reads only those signed. */
  markers: Markers
  /** An edit of the dashboard with `approval: dashboard`: a tick is judged, then the run catches up. */
  tick?: boolean
}

type Settings = TriggerSettings & ChangeSettings & { projectId: string; apiKey: string }

/** Pull requests of a batch told about their docs pull request, besides the event's own. */
const MAX_SOURCE_COMMENTS = 5

/**
 * Code changes become one batch, a prompt (the changes described and capped), a comment on the
 * event's pull request, and a new job or a follow-up to the job whose docs pull request is still
 * open. With the dashboard, the batch runs from the ledger's last documented commit, and the
 * ledger is written once the service has accepted.
 */
export async function prepareChangeRun(
  settings: Settings,
  event: RunEvent,
  deps: RunDeps
): Promise<PreparedRun> {
  const plan: ChangePlan = deps.tick
    ? { kind: settings.codeRepositories?.length ? 'project' : 'since-last' }
    : planChange(settings, event)
  if (plan.kind === 'skip') return skipped(plan.why, plan.source)
  if (!settings.githubToken) {
    throw new InputError(
      `Input '${Input.GithubToken}' is empty: it is needed to read the ${event.name || 'code'} changes (files, commits). Leave it at its default (\${{ github.token }}).`
    )
  }
  const github = connectGitHub(settings.githubToken, event, deps.signal, {
    clock: deps.clock,
    session: deps.session
  })
  const push = event.name === 'push' ? event.push : undefined
  const rules: ChangeRules = {
    allowedBots: settings.allowedBots,
    skipLabel: settings.skipLabel,
    paths: settings.paths,
    pusher: push && { login: push.pusher, isBot: push.pusherIsBot }
  }
  const run = new ChangeRun(settings, event, deps, github, rules)
  try {
    return plan.kind === 'own' ? await run.own(plan) : await run.withLedger(plan)
  } catch (error) {
    if (deps.signal?.aborted)
      throw new CancelledError(
        'Cancelled before a job was started; nothing was sent to the service.'
      )
    throw error
  }
}

function skipped(why: string, source?: string, extra: Partial<PreparedRun> = {}): PreparedRun {
  return {
    skipped: why,
    source,
    request: {},
    followUp: false,
    notices: [],
    decision: 'skip',
    ...extra
  }
}

class ChangeRun {
  private readonly reader: ChangeReader
  /** Builds the prompt of a batch: the reader's, or a docs project's (each repository's patches). */
  private describe: (batch: ChangeBatch, followUp: boolean) => Promise<string>

  constructor(
    private readonly settings: Settings,
    private readonly event: RunEvent,
    private readonly deps: RunDeps,
    private readonly github: GitHubApi,
    private readonly rules: ChangeRules
  ) {
    this.reader = new ChangeReader(settings, event, deps, github, rules)
    this.describe = (batch, followUp) => this.reader.prompt(batch, followUp)
  }

  /** One change on its own, outside the ledger: no catch-up, no fold. */
  async own(plan: Extract<ChangePlan, { kind: 'own' }>): Promise<PreparedRun> {
    const { settings, event } = this
    let batch: ChangeBatch
    if (plan.pull) {
      const why = pullRefusal({ ...plan.pull, files: [], filesComplete: false }, this.rules)
      if (why) return skipped(`Pull request ${why}`, plan.source)
      if (plan.gate) {
        const refused = await trustRefusal(
          async () => this.github,
          event,
          settings,
          this.deps.signal
        )
        if (refused) return skipped(refused, plan.source)
      }
      const pull = await this.reader.read(`read pull request #${plan.pull.number}`, () =>
        readPull(this.github, this.event, plan.pull?.number as number)
      )
      if (!pull)
        throw new ExplainedError(
          `GitHub knows no pull request #${plan.pull.number} in ${event.owner}/${event.repo}.`
        )
      batch = {
        repository: `${event.owner}/${event.repo}`,
        branch: pull.base,
        url: pull.url,
        head: pull.mergeCommit ?? '',
        pulls: [pull],
        commits: [],
        skipped: [],
        leftOut: []
      }
    } else {
      const push = plan.push as NonNullable<typeof plan.push>
      batch = await this.reader.readRange(
        push.after,
        push.created ? undefined : push.before,
        push.ref.replace(/^refs\/heads\//, '')
      )
    }
    batch = applyRules(batch, { ...this.rules, docsIdentity: await this.reader.docsIdentity() })
    if (batchSize(batch) === 0) return skipped(nothingLeft(batch), plan.source ?? batch.url)
    const target = this.commentTarget(batch)
    const comment = target === undefined ? undefined : this.comment(target)
    if (event.runAttempt > 1) {
      // A re-run waits on its first attempt's job, recorded in its comment. Comments that cannot be
      // read start nothing; read, and without this run's record, its first attempt started no job.
      const recorded = (await comment?.recorded())?.find(
        r => r.marker.run === event.runId && r.marker.step === this.deps.markers.step
      )
      if (recorded) {
        comment?.adopt(recorded.commentId)
        return this.resume(recorded.marker.job, batch, comment)
      }
      if (comment?.unreadable) throw unknownEarlierJob(event, `#${target}`)
    }
    const prompt = await this.describe(batch, false)
    return {
      source: plan.source ?? batch.url,
      request: { prompt },
      comment,
      followUp: false,
      notices: [],
      decision: 'new-job',
      dryRun: settings.dryRun,
      batch,
      requestReviewers: (job: AgentJob) => this.requestReviewers(batch, job)
    }
  }

  /** The default branch: everything since the ledger's last documented commit, as one batch. */
  async withLedger(
    plan: Extract<ChangePlan, { kind: 'range' | 'since-last' | 'project' }>
  ): Promise<PreparedRun> {
    const { settings, event, deps } = this
    const dashboard = await Dashboard.open(this.github, {
      title: settings.dashboardTitle,
      signer: new RecordSigner(settings.apiKey),
      view: { repository: `${event.owner}/${event.repo}`, serverUrl: event.serverUrl },
      now: () => deps.clock.wallNow()
    })
    const session = new LedgerSession(
      dashboard,
      settings.projectId,
      { id: event.runId, url: event.runUrl, attempt: event.runAttempt, step: event.step },
      () => deps.clock.wallNow(),
      settings.maxJobs
    )
    const notices = [...session.notices]
    const extra = { notices, dashboardUrl: session.url }
    if (event.runAttempt > 1) {
      const earlier = session.earlierAttempt()
      if (earlier?.job) return this.resume(earlier.job, undefined, undefined, extra)
      if (dashboard.notices.length) throw unknownEarlierJob(event, 'the dashboard')
    }
    let approvedBy: string | undefined
    if (deps.tick) {
      const verdict = await judgeTick({
        ...deps,
        dashboard,
        session,
        github: this.github,
        event,
        settings
      })
      if ('skip' in verdict) return skipped(verdict.skip, undefined, extra)
      approvedBy = session.approvedBy = verdict.approvedBy
      deps.log.info(`@${approvedBy} approved the waiting changes: deciding where they go now.`)
    }
    // Before the fold decision: an expired docs pull request is not folded into.
    await this.refreshDocsPulls(session)
    const project = session.project
    const source = plan.kind === 'range' ? plan.source : undefined
    const read =
      plan.kind === 'project'
        ? await this.projectBatch(session, notices)
        : await this.branchBatch(session, plan, notices)
    if ('skip' in read) return skipped(read.skip, source, extra)
    const { batch } = read
    const budget = session.budgetState()
    const budgetText =
      budget && settings.maxJobs && `${budget.used} of ${settings.maxJobs.text} used`
    if (batchSize(batch) === 0) {
      const why = nothingLeft(batch)
      if (!settings.dryRun) await this.record(session, { batch, result: 'skipped', note: why })
      return skipped(why, source ?? batch.url, { ...extra, batch, budget: budgetText })
    }
    const gated = settings.approval === 'dashboard'
    if (gated && !approvedBy && !project.waiting?.approvedBy)
      return this.awaitApproval(session, batch, {
        ...extra,
        source: source ?? batch.url,
        batch,
        budget: budgetText
      })
    // Approved now, or before and kept waiting by a limit: the approval stays while it waits.
    const approval = approvedBy ? { approvedBy, approvedAt: deps.clock.wallNow() } : undefined
    if (budget && budget.left === 0 && settings.maxJobs) {
      const until = new Date(budget.freesAt ?? deps.clock.wallNow())
        .toISOString()
        .slice(0, 16)
        .replace('T', ' ')
      const why = `Over budget: ${budget.used} jobs and follow-ups in the window of 'max-jobs: ${settings.maxJobs.text}'; the next one frees at ${until} UTC. ${counted(batchSize(batch), 'change')} ${batchSize(batch) === 1 ? 'waits' : 'wait'} on the dashboard, and the next run takes them.`
      return this.waitOnDashboard(
        session,
        batch,
        why,
        { approval },
        {
          ...extra,
          source: source ?? batch.url,
          batch,
          budget: budgetText,
          waiting: gated
        }
      )
    }
    const foldContext = this.foldContext()
    const fold: FoldDecision =
      settings.fold === 'open-pr'
        ? await decideFold(project, foldContext)
        : { info: "'fold' is 'never': starting a new job." }
    deps.log.info(fold.info)
    if (fold.notice) notices.push(fold.notice)
    session.noteSeen(fold.seen)
    if (!fold.target && settings.maxOpen) {
      const count = await countOpen(project, settings.maxOpen, fold, foldContext)
      session.noteUpdates(count.updates)
      if (count.unread.length)
        notices.push(
          `Could not read ${count.unread.join('; ')}: counted as open for 'max-open'.${count.grant}`
        )
      if (count.open.length >= settings.maxOpen) {
        const which = count.open
          .slice(0, 5)
          .map(o => o.prLink ?? `job ${o.jobId} (running)`)
          .join(', ')
        const why = `At 'max-open: ${settings.maxOpen}': ${counted(count.open.length, 'docs pull request')} of this project open or on the way (${which}). ${counted(batchSize(batch), 'change')} ${batchSize(batch) === 1 ? 'waits' : 'wait'} on the dashboard; the waiting changes go into one job together once one is merged or closed.`
        return this.waitOnDashboard(
          session,
          batch,
          why,
          { approval },
          {
            ...extra,
            source: source ?? batch.url,
            batch,
            budget: budgetText,
            waiting: gated
          }
        )
      }
    }
    const prompt = await this.describe(batch, false)
    const target = this.commentTarget(batch)
    const comment =
      target === undefined || settings.dryRun
        ? undefined
        : this.comment(target, fold.target?.docsPr, Boolean(fold.target))
    // Before anything is started: without 'issues: write' nothing is sent that the ledger could not record.
    if (!settings.dryRun) {
      const known = session.notices.length
      await session.ensureWritable()
      notices.push(...session.notices.slice(known))
    }
    const hooks = {
      accepted: (job: AgentJob, followUp: boolean) => session.accepted(job, batch, followUp),
      uncertain: (followUp: boolean, why: string, jobId?: string) =>
        session.uncertain(batch, followUp ? 'follow-up' : 'new-job', why, jobId),
      finished: async (job: AgentJob, result: string) => {
        await session.finished(job, result)
        await this.tellSources(batch, job, target)
      }
    }
    const common = {
      source: source ?? batch.url,
      comment,
      batch,
      dryRun: settings.dryRun,
      ledger: hooks,
      requestReviewers: (job: AgentJob) => this.requestReviewers(batch, job),
      budget: budgetText,
      ...extra
    }
    if (settings.dryRun && batch.parts) notices.push(previewNotice(batch, fold.target?.jobId))
    if (fold.target) {
      const followUp = await this.describe(batch, true)
      return {
        ...common,
        request: { jobId: fold.target.jobId, prompt: followUp, fallbackPrompt: prompt },
        followUp: true,
        fold: fold.target,
        decision: 'follow-up'
      }
    }
    return { ...common, request: { prompt }, followUp: false, decision: 'new-job' }
  }

  /** The default branch's changes since the ledger's last documented commit, through the rules. */
  private async branchBatch(
    session: LedgerSession,
    plan: Extract<ChangePlan, { kind: 'range' | 'since-last' }>,
    notices: string[]
  ): Promise<{ skip: string } | { batch: ChangeBatch }> {
    const head =
      plan.kind === 'range'
        ? { sha: plan.head, branch: plan.branch }
        : await this.reader.branchHead()
    const { settings } = this
    const project = session.project
    const documented = project.documented?.sha
    if (documented === head.sha)
      return {
        skip: `Everything up to ${head.sha.slice(0, 12)} on ${head.branch} is documented already.`
      }
    const earlierRun = session.coveredBy(head.sha)
    if (earlierRun)
      return {
        skip: `The run ${earlierRun.url || earlierRun.run} covered ${head.sha.slice(0, 12)} already.`
      }
    if (!documented && plan.kind === 'since-last') {
      const batch = this.reader.emptyBatch(head.sha, head.branch)
      if (!settings.dryRun)
        await this.record(session, {
          batch,
          result: 'skipped',
          note: 'first run: the branch head is recorded as documented'
        })
      return {
        skip: `The dashboard had no last documented commit: ${head.sha.slice(0, 12)} on ${head.branch} is recorded as documented, and nothing is started. The next run documents what comes after it.`
      }
    }
    const batch = await this.reader.ledgerBatch(plan, head, documented, notices)
    return { batch: applyRules(batch, await this.ledgerRules(project)) }
  }

  /**
   * `code-repositories`: every listed repository's merges since its own watermark, as one batch
   * grouped by repository; it is described with each repository's own patches.
   */
  private async projectBatch(
    session: LedgerSession,
    notices: string[]
  ): Promise<{ skip: string } | { batch: ChangeBatch }> {
    const read = await readProjectBatch({
      settings: this.settings,
      event: this.event,
      deps: this.deps,
      project: session.project,
      rules: await this.ledgerRules(session.project),
      notices
    })
    if ('skip' in read) return read
    this.describe = read.prompt
    return read
  }

  /** The rules of a ledger run: the docs pull requests it opened and its identity are its own. */
  private async ledgerRules(project: ProjectLedger): Promise<ChangeRules> {
    const docsPulls = new Set(
      project.jobs.map(j => j.prLink).filter((l): l is string => Boolean(l))
    )
    return { ...this.rules, docsPulls, docsIdentity: await this.reader.docsIdentity() }
  }

  /** How a fold decision reads the earlier job and its docs pull request. */
  private foldContext() {
    const { settings, event, deps } = this
    return {
      readJob: deps.readJob,
      serverUrl: event.serverUrl,
      docs: docsPulls(settings, event.apiUrl, deps, { orRunToken: true })
    }
  }

  /**
   * `approval: dashboard`: nothing starts; the batch waits on the dashboard with its checkbox (the
   * same batch, joined by these changes, when one waits already) and what a run would do now.
   */
  private async awaitApproval(
    session: LedgerSession,
    batch: ChangeBatch,
    extra: Partial<PreparedRun>
  ): Promise<PreparedRun> {
    const { settings, deps } = this
    const fold =
      settings.fold === 'open-pr'
        ? await decideFold(session.project, this.foldContext())
        : undefined
    session.noteSeen(fold?.seen)
    const target = fold?.target
    const prompt = await this.describe(batch, Boolean(target))
    const why = awaitingWhy(batchSize(batch))
    // On an empty ledger the range starts before this change, so that later changes join it.
    // A docs project's repositories keep their own watermarks: the ledger records those it first saw.
    const base =
      session.project.documented || batch.parts
        ? undefined
        : (batch.base ?? (await this.reader.parentOf(batch)))
    const approval = {
      batch: session.project.waiting?.batch ?? newBatchId(deps.clock.wallNow()),
      wouldDo: {
        decision: target ? ('follow-up' as const) : ('new-job' as const),
        ...(target ? { job: target.jobId } : {}),
        promptBytes: bytes(prompt)
      }
    }
    return this.waitOnDashboard(
      session,
      batch,
      why,
      { approval, base },
      { ...extra, waiting: true }
    )
  }

  /** The batch waits on the dashboard, for a limit or for approval; a dry run only says so. */
  private async waitOnDashboard(
    session: LedgerSession,
    batch: ChangeBatch,
    why: string,
    written: Pick<Parameters<LedgerSession['recordDecision']>[0], 'approval' | 'base'>,
    run: Partial<PreparedRun>
  ): Promise<PreparedRun> {
    if (!this.settings.dryRun)
      await this.record(session, { batch, result: 'waiting', note: why, waiting: why, ...written })
    return skipped(why, run.source, run)
  }

  /**
   * The ledger's docs pull requests read again: `expire-after` closes the stale ones, then a few
   * of the last 30 days whose outcome is not known yet are read for the dashboard's outcomes. What
   * was seen is recorded in one write, only when something changed.
   */
  private async refreshDocsPulls(session: LedgerSession): Promise<void> {
    const { settings, event, deps } = this
    const after = settings.expireAfter
    const expiry =
      after && settings.docsToken
        ? await expireStale(session.project, {
            afterMs: after.ms,
            afterText: after.text,
            keepLabel: after.keepLabel,
            now: deps.clock.wallNow(),
            docs: docsPulls(settings, event.apiUrl, deps),
            serverUrl: event.serverUrl,
            dashboardUrl: session.url,
            log: deps.log,
            dryRun: settings.dryRun
          })
        : { updates: [], expired: [] }
    // The job the fold decision reads anyway is left to it.
    const foldCandidate =
      settings.fold === 'open-pr'
        ? [...session.project.jobs].reverse().find(j => LIVE.has(j.state))?.id
        : undefined
    const skip = new Set([
      ...expiry.updates.map(u => u.jobId),
      ...(foldCandidate ? [foldCandidate] : [])
    ])
    const reads = await refreshOutcomes(session.project, {
      now: deps.clock.wallNow(),
      docs: docsPulls(settings, event.apiUrl, deps, { orRunToken: true }),
      serverUrl: event.serverUrl,
      log: deps.log,
      skip
    })
    if (settings.dryRun) return
    const { expired } = expiry
    const changed = [...expiry.updates, ...reads.changed]
    // Only read, nothing changed: kept for the run's next write, not written for itself.
    if (!changed.length) return session.noteUpdates(reads.checked)
    try {
      await session.docsPullsSeen(
        [...changed, ...reads.checked],
        expired,
        `closed ${expired.join(', ')}: open longer than 'expire-after: ${after?.text ?? ''}'`
      )
    } catch (error) {
      deps.log.warning(`${errorText(error)} The next run reads the docs pull requests again.`)
    }
  }

  /**
   * The batch's other pull requests (caught up from runs that did not get to run) each get a short
   * comment with the docs pull request, once there is one: a few, the dashboard lists them all.
   */
  private async tellSources(batch: ChangeBatch, job: AgentJob, commented?: number): Promise<void> {
    // A docs project's changes are in other repositories, which github-token may only read.
    if (!job.prLink || this.settings.comment === 'false' || batch.parts) return
    const others = batch.pulls.filter(p => p.number !== commented).slice(0, MAX_SOURCE_COMMENTS)
    for (const pull of others) {
      try {
        await this.github.createComment(pull.number, sourceComment(job, this.event.runUrl))
      } catch (error) {
        this.deps.log.warning(
          `Could not comment on #${pull.number} with its docs pull request: ${describeGitHubError(error)}.`
        )
      }
    }
  }

  /** `reviewers: authors`: the batch's authors are asked to review the docs pull request. */
  private async requestReviewers(batch: ChangeBatch, job: AgentJob): Promise<void> {
    const { settings, event, deps } = this
    if (settings.reviewers !== 'authors' || !settings.docsToken || !job.prLink) return
    await requestAuthors(batch, job.prLink, {
      docs: docsPulls(settings, event.apiUrl, deps),
      serverUrl: event.serverUrl,
      log: deps.log
    })
  }

  /** The event's own pull request gets the live comment; `issue-number` overrides, `comment: false` none. */
  private commentTarget(batch: ChangeBatch): number | undefined {
    const { settings, event } = this
    if (settings.comment === 'false') return undefined
    // A docs project's pull requests are in other repositories: only `issue-number` is here.
    if (batch.parts) return settings.issueNumber
    const own =
      event.pullRequest?.number ?? (batch.pulls.length === 1 ? batch.pulls[0]?.number : undefined)
    const target = settings.issueNumber ?? own
    if (settings.comment === 'true' && target === undefined)
      this.deps.log.warning('No pull request to comment on: the changes came through none.')
    return target
  }

  private comment(target: number, docsPr?: string, folded = false): LiveComment {
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

  private resume(
    jobId: string,
    batch: ChangeBatch | undefined,
    comment: LiveComment | undefined,
    extra: Partial<PreparedRun> = {}
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
      decision: 'follow-up'
    }
  }

  /**
   * A decision that starts nothing is recorded on the dashboard for people and the next run; when
   * that fails, nothing was started that needed the record, so it is a warning.
   */
  private async record(
    session: LedgerSession,
    decision: Parameters<LedgerSession['recordDecision']>[0]
  ): Promise<void> {
    try {
      await session.recordDecision(decision)
    } catch (error) {
      this.deps.log.warning(`${errorText(error)} The next run decides again.`)
    }
  }
}

/** The short comment on a caught-up pull request: where its docs went. */
function sourceComment(job: AgentJob, runUrl: string): string {
  const link = markdownLink(job.prLink ?? '', job.prLink)
  const run = runUrl ? ` · ${markdownLink('workflow run', runUrl)}` : ''
  return `📝 **Mintlify agent** documented this change together with others in ${link} · job ${codeSpan(job.id)}${run}`
}

/**
 * A docs project's dry run (a first install's preview with `since`): what the batch would become
 * and what it would cost, before any credit is spent.
 */
function previewNotice(batch: ChangeBatch, followUpTo?: string): string {
  const from = new Set([...batch.pulls, ...batch.commits].map(c => c.repository)).size
  const what = followUpTo ? `a follow-up to job ${followUpTo}` : 'one new job'
  return `Preview (dry-run): ${counted(batchSize(batch), 'change')} from ${counted(from, 'code repository', 'code repositories')} would go to ${what}, about ${ESTIMATED_CREDITS_PER_RUN} credits (Mintlify's published average a run); nothing was written.`
}

/** Why a batch left nothing to document: what the rules skipped, or that it was empty. */
function nothingLeft(batch: ChangeBatch): string {
  if (batch.skipped.length === 0 && batch.parts)
    return `There is nothing to document: no code repository merged anything after its last documented commit (one seen for the first time has its newest commit recorded).`
  if (batch.skipped.length === 0)
    return `There is nothing to document: ${batch.url || 'the range'} holds no commit or changed file.`
  return `There is nothing to document: ${batch.skipped.map(s => s.why).join(' ')}`
}

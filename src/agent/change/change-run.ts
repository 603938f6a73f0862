import { type GitHubApi, connectGitHub } from '../../github/api.js'
import type { RunEvent } from '../../github/event.js'
import type { AgentJob } from '../../mintlify/agent-jobs.js'
import { RecordSigner } from '../../records/record.js'
import { CancelledError, ExplainedError, InputError, errorText } from '../../runner/errors.js'
import { LiveComment, unknownEarlierJob } from '../comment/live-comment.js'
import { Dashboard } from '../ledger/dashboard.js'
import { LedgerSession } from '../ledger/ledger-session.js'
import { Input } from '../names.js'
import {
  type LedgerHooks,
  type PreparedRun,
  type RunAbout,
  type StoppedRun,
  skippedRun
} from '../prepared-run.js'
import { trustRefusal } from '../trust-gate.js'
import { requestReviewers, tellSources } from './after-job.js'
import { judgeTick } from './approval.js'
import { type ChangeBatch, readPull } from './change-batch.js'
import { type ChangePlan, planChange } from './change-plan.js'
import { ChangeReader } from './change-reader.js'
import { type ChangeRules, applyRules, pullRefusal } from './change-rules.js'
import type { ChangeRunSettings, RunDeps } from './change-settings.js'
import { refreshDocsPulls } from './docs-pulls-refresh.js'
import { type FoldContext, type FoldDecision, type FoldTarget, decideFold } from './fold.js'
import type { Verdict } from './gates/gate.js'
import { nothingLeftOf } from './gates/nothing-left.js'
import { GATES, applyGates } from './gates/order.js'

type Settings = ChangeRunSettings

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
  const plan: ChangePlan = deps.tick ? { kind: 'since-last' } : planChange(settings, event)
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

const skipped = (why: string, source?: string, about: Partial<RunAbout> = {}): StoppedRun =>
  skippedRun(why, { source, ...about })

class ChangeRun {
  private readonly reader: ChangeReader

  constructor(
    private readonly settings: Settings,
    private readonly event: RunEvent,
    private readonly deps: RunDeps,
    private readonly github: GitHubApi,
    private readonly rules: ChangeRules
  ) {
    this.reader = new ChangeReader(settings, event, deps, github, rules)
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
    const empty = nothingLeftOf(batch)
    if (empty.kind === 'skip') return skipped(empty.why, plan.source ?? batch.url)
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
    const prompt = await this.reader.prompt(batch, false)
    return {
      source: plan.source ?? batch.url,
      request: { prompt },
      comment,
      followUp: false,
      notices: [],
      kind: 'new-job',
      batch,
      requestReviewers: (job: AgentJob) => requestReviewers(batch, job, settings, event, this.deps)
    }
  }

  /**
   * The default branch: everything since the ledger's last documented commit, as one batch. The
   * run reads, runs the gates (docs/architecture.md), decides where the batch goes, then hands it over.
   */
  async withLedger(
    plan: Extract<ChangePlan, { kind: 'range' | 'since-last' }>
  ): Promise<PreparedRun> {
    const { settings, event, deps } = this
    const { dashboard, session } = await this.openLedger()
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
    await refreshDocsPulls(session, settings, event, deps)
    const head =
      plan.kind === 'range'
        ? { sha: plan.head, branch: plan.branch }
        : await this.reader.branchHead()
    const source = plan.kind === 'range' ? plan.source : undefined
    const now = () => deps.clock.wallNow()
    const atHead = {
      plan,
      head,
      ledger: session,
      settings,
      reads: this.reader,
      now,
      log: deps.log,
      notices
    }
    const early = await applyGates(GATES.head, atHead)
    if (early) return this.stopped(session, early, { ...extra, source })
    const batch = await this.ledgerBatch(session, plan, head, notices)
    const budget = session.budgetState()
    const run = {
      ...extra,
      source: source ?? batch.url,
      batch,
      budget: budget && settings.maxJobs && `${budget.used} of ${settings.maxJobs.text} used`
    }
    const foldContext = this.foldContext()
    const withBatch = { ...atHead, batch, approvedBy, foldContext }
    const held = await applyGates(GATES.batch, withBatch)
    if (held) return this.stopped(session, held, run, batch)
    const decision = await this.decide(session, foldContext, notices)
    const limited = await applyGates(GATES.decided, { ...withBatch, decision })
    if (limited) return this.stopped(session, limited, run, batch)
    return this.handOver(session, batch, decision.target, run)
  }

  private async openLedger(): Promise<{ dashboard: Dashboard; session: LedgerSession }> {
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
    return { dashboard, session }
  }

  /** The batch from the ledger's last documented commit, with the change rules applied. */
  private async ledgerBatch(
    session: LedgerSession,
    plan: Extract<ChangePlan, { kind: 'range' | 'since-last' }>,
    head: { sha: string; branch: string },
    notices: string[]
  ): Promise<ChangeBatch> {
    const { project } = session
    const batch = await this.reader.ledgerBatch(plan, head, project.documented?.sha, notices)
    const docsPulls = new Set(
      project.jobs.map(j => j.prLink).filter((l): l is string => Boolean(l))
    )
    return applyRules(batch, {
      ...this.rules,
      docsPulls,
      docsIdentity: await this.reader.docsIdentity()
    })
  }

  /** Where the batch goes: the open job it folds into (`fold: open-pr`), or a new job. */
  private async decide(
    session: LedgerSession,
    foldContext: FoldContext,
    notices: string[]
  ): Promise<FoldDecision> {
    const fold: FoldDecision =
      this.settings.fold === 'open-pr'
        ? await decideFold(session.project, foldContext)
        : { info: "'fold' is 'never': starting a new job." }
    this.deps.log.info(fold.info)
    if (fold.notice) notices.push(fold.notice)
    session.noteSeen(fold.seen)
    return fold
  }

  /**
   * A gate stopped the batch: a skip ends the run (its decision recorded on the dashboard when the
   * gate asks), a hold leaves the batch waiting there. A dry run only says so.
   */
  private async stopped(
    session: LedgerSession,
    verdict: Exclude<Verdict, { kind: 'pass' }>,
    run: Partial<RunAbout>,
    batch?: ChangeBatch
  ): Promise<PreparedRun> {
    const { dryRun, approval } = this.settings
    if (verdict.kind === 'skip') {
      const recorded = verdict.record?.batch ?? batch
      if (verdict.record && recorded && !dryRun)
        await this.record(session, {
          batch: recorded,
          result: 'skipped',
          note: verdict.record.note
        })
      return skipped(verdict.why, run.source, run)
    }
    const why = verdict.why
    if (batch && !dryRun)
      await this.record(session, {
        batch,
        result: 'waiting',
        note: why,
        waiting: why,
        ...verdict.written
      })
    // Only the approval's wait is `result: waiting`; a limit's, without approval, is a skip.
    return { ...skipped(why, run.source, run), kind: approval === 'dashboard' ? 'wait' : 'skip' }
  }

  /** The batch goes to the service: a follow-up to the job it folds into, or a new job. */
  private async handOver(
    session: LedgerSession,
    batch: ChangeBatch,
    fold: FoldTarget | undefined,
    run: RunAbout
  ): Promise<PreparedRun> {
    const { settings, event, deps } = this
    const prompt = await this.reader.prompt(batch, false)
    const target = this.commentTarget(batch)
    const comment =
      target === undefined || settings.dryRun
        ? undefined
        : this.comment(target, fold?.docsPr, Boolean(fold))
    // Before anything is started: without 'issues: write' nothing is sent that the ledger could not record.
    if (!settings.dryRun) {
      const known = session.notices.length
      await session.ensureWritable()
      run.notices.push(...session.notices.slice(known))
    }
    const ledger: LedgerHooks = {
      accepted: (job, followUp) => session.accepted(job, batch, followUp),
      uncertain: (followUp, why, jobId) =>
        session.uncertain(batch, followUp ? 'follow-up' : 'new-job', why, jobId),
      finished: async (job, result) => {
        await session.finished(job, result)
        if (settings.comment !== 'false')
          await tellSources(this.github, batch, job, {
            commented: target,
            runUrl: event.runUrl,
            log: deps.log
          })
      }
    }
    const common = {
      ...run,
      comment,
      batch,
      ledger,
      requestReviewers: (job: AgentJob) => requestReviewers(batch, job, settings, event, deps)
    }
    if (fold) {
      const followUp = await this.reader.prompt(batch, true)
      return {
        ...common,
        request: { jobId: fold.jobId, prompt: followUp, fallbackPrompt: prompt },
        followUp: true,
        fold,
        kind: 'follow-up'
      }
    }
    return { ...common, request: { prompt }, followUp: false, kind: 'new-job' }
  }

  /** How a fold decision reads the earlier job and its docs pull request. */
  private foldContext(): FoldContext {
    const { settings, event, deps } = this
    return {
      readJob: deps.readJob,
      serverUrl: event.serverUrl,
      docsGitHub: (owner: string, repo: string) =>
        connectGitHub(
          settings.docsToken || settings.githubToken,
          { owner, repo, apiUrl: event.apiUrl },
          deps.signal,
          { clock: deps.clock, session: deps.session }
        )
    }
  }

  /** The event's own pull request gets the live comment; `issue-number` overrides, `comment: false` none. */
  private commentTarget(batch: ChangeBatch): number | undefined {
    const { settings, event } = this
    if (settings.comment === 'false') return undefined
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

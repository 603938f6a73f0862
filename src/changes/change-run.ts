import type { RunEvent } from '../github/event.js'
import { CancelledError, InputError, errorText } from '../runner/errors.js'
import { unknownEarlierJob } from '../agent/comment/live-comment.js'
import type { Dashboard } from '../agent/ledger/dashboard.js'
import type { LedgerSession } from '../agent/ledger/ledger-session.js'
import { openRunLedger } from '../agent/ledger/run-ledger.js'
import { Input, Key } from '../agent/names.js'
import { needingDashboard } from '../policy/policy.js'
import type { PreparedRun, RunAbout } from '../agent/prepared-run.js'
import { judgeTick } from './approval.js'
import type { ChangeBatch } from '../agent/batch.js'
import { ChangeContext, skipped } from './change-context.js'
import { type ChangePlan, planChange } from './change-plan.js'
import { type ChangeRules, applyRules } from './change-rules.js'
import type { ChangeRunSettings, RunDeps } from './change-settings.js'
import { refreshDocsPulls } from './docs-pulls-refresh.js'
import type { FoldDecision } from '../agent/ledger/fold.js'
import { type FoldContext, decideFold } from './fold.js'
import type { HeadInput } from './gates/gate.js'
import { type Verdict, applyGates } from '../agent/gates/gate.js'
import { previewNotice, readProjectBatch } from './project-batch.js'
import type { ProjectLedger } from '../records/ledger.js'
import { GATES } from './gates/order.js'
import { batchSources } from './change-prompt.js'
import { handOver } from './hand-over.js'
import { fitBatch } from './batch-fit.js'
import { ownChange } from './own-change.js'

/** What stops a run before its batch is handed over. */
type Stop = Exclude<Verdict, { kind: 'pass' }>

/**
 * Code changes become one batch, a prompt (the changes described and capped), a comment on the
 * event's pull request, and a new job or a follow-up to the job whose docs pull request is still
 * open. With the dashboard, the batch runs from the ledger's last documented commit, and the
 * ledger is written once the service has accepted.
 */
export async function prepareChangeRun(
  settings: ChangeRunSettings,
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
  const github = deps.session.repository(settings.githubToken, event)
  const push = event.name === 'push' ? event.push : undefined
  const rules: ChangeRules = {
    allowedBots: settings.allowedBots,
    skipLabel: settings.skipLabel,
    paths: settings.paths,
    pusher: push && { login: push.pusher, isBot: push.pusherIsBot }
  }
  const run = new ChangeRun(settings, event, deps, github, rules)
  try {
    return plan.kind === 'own' ? await ownChange(run, plan) : await run.withLedger(plan)
  } catch (error) {
    if (deps.signal?.aborted)
      throw new CancelledError(
        'Cancelled before a job was started; nothing was sent to the service.'
      )
    throw error
  }
}

/** The run with the dashboard: read, apply the gates, decide, hand over (docs/architecture.md). */
class ChangeRun extends ChangeContext {
  /**
   * The default branch: everything since the ledger's last documented commit, as one batch. The
   * run reads, runs the gates (docs/architecture.md), decides where the batch goes, then hands it over.
   */
  async withLedger(
    plan: Extract<ChangePlan, { kind: 'range' | 'since-last' | 'project' }>
  ): Promise<PreparedRun> {
    const { settings, event, deps } = this
    const { dashboard, session } = await this.openLedger()
    const notices = [...session.notices]
    const extra = { notices, dashboardUrl: session.url }
    if (event.runAttempt > 1) {
      const earlier = session.earlierAttempt()
      if (earlier?.job) return this.resume(earlier.job, undefined, undefined, extra)
      // Only a state that could not be read hides an earlier attempt's job; the informational
      // notices (locked, relabelled, a copy left aside) are shown with the run.
      if (dashboard.stateUnread)
        throw unknownEarlierJob(event, dashboard.url ?? 'the dashboard', 'the state of')
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
      session.resending = verdict.resend
      deps.log.info(`@${approvedBy} approved the waiting changes: deciding where they go now.`)
    }
    await refreshDocsPulls(session, settings, event, deps)
    const source = plan.kind === 'range' ? plan.source : undefined
    const read =
      plan.kind === 'project'
        ? await this.projectBatch(session, plan, notices)
        : await this.branchBatch(session, plan, notices)
    if ('stop' in read) return this.stopped(session, read.stop, { ...extra, source })
    const { atHead, batch } = read
    const run = {
      ...extra,
      source: source ?? (batchSources(batch).join('\n') || batch.url),
      batch,
      budget: session.budgetSummary()
    }
    const foldContext = this.foldContext()
    const withBatch = { ...atHead, batch, approvedBy, foldContext }
    const held = await applyGates(GATES.batch, withBatch)
    if (held) return this.stopped(session, held, run, batch)
    const decision = await this.decide(session, foldContext, notices)
    const limited = await applyGates(GATES.decided, { ...withBatch, decision })
    if (limited) return this.stopped(session, limited, run, batch)
    if (settings.dryRun && batch.parts)
      notices.push(previewNotice(batch, settings.creditsPerRun, decision.target?.jobId))
    return handOver(this, session, batch, decision.target, run, atHead.reads)
  }

  /**
   * The default branch's head passes the head gates (documented already, covered, first run),
   * then its changes since the ledger's last documented commit are read.
   */
  private async branchBatch(
    session: LedgerSession,
    plan: Extract<ChangePlan, { kind: 'range' | 'since-last' }>,
    notices: string[]
  ): Promise<{ stop: Stop } | { atHead: HeadInput; batch: ChangeBatch }> {
    const { settings, deps } = this
    const head =
      plan.kind === 'range'
        ? { sha: plan.head, branch: plan.branch }
        : await this.reader.branchHead()
    const atHead = {
      plan,
      head,
      ledger: session,
      settings,
      reads: this.reader,
      now: () => deps.clock.wallNow(),
      log: deps.log,
      notices
    }
    const early = await applyGates(GATES.head, atHead)
    if (early) return { stop: early }
    return { atHead, batch: await this.ledgerBatch(session, plan, head, notices) }
  }

  /**
   * `code-repositories`: every listed repository's merges since its own watermark, one batch
   * grouped by repository and described with each repository's own patches. The head gates are
   * the repositories' own (nothing new, a first look), judged as they are read.
   */
  private async projectBatch(
    session: LedgerSession,
    plan: Extract<ChangePlan, { kind: 'project' }>,
    notices: string[]
  ): Promise<{ stop: Stop } | { atHead: HeadInput; batch: ChangeBatch }> {
    const { settings, deps } = this
    const read = await readProjectBatch({
      settings,
      event: this.event,
      deps,
      project: session.project,
      ...(session.resending ? { resent: session.resent() } : {}),
      rules: await this.ledgerRules(session.project),
      notices
    })
    if ('skip' in read) return { stop: { kind: 'skip', why: read.skip } }
    const { batch } = read
    const atHead = {
      plan,
      // A docs project has no one head: each repository's is in the batch's parts.
      head: { sha: batch.head, branch: batch.branch },
      ledger: session,
      settings,
      reads: read.reads,
      now: () => deps.clock.wallNow(),
      log: deps.log,
      notices
    }
    return { atHead, batch }
  }

  /** The rules of a ledger run: the docs pull requests it opened and its identity are its own. */
  private async ledgerRules(project: ProjectLedger): Promise<ChangeRules> {
    const docsPulls = new Set(
      project.jobs.map(j => j.prLink).filter((l): l is string => Boolean(l))
    )
    return { ...this.rules, docsPulls, docsIdentity: await this.reader.docsIdentity() }
  }

  private openLedger(): Promise<{ dashboard: Dashboard; session: LedgerSession }> {
    const { settings, event, deps } = this
    // Offered only to a policy that could go without the dashboard: a docs project, approval on
    // it or a limit its ledger holds would have that setting refused.
    const withoutLedger = needingDashboard(settings).length
      ? undefined
      : `set '${Key.Dashboard}: false' to run every change as its own job without a record`
    return openRunLedger(this.github, settings, event, deps.clock, {
      withoutLedger,
      signal: deps.signal,
      warn: message => deps.log.warning(message)
    })
  }

  /** The batch from the ledger's last documented commit, with the change rules applied. */
  private async ledgerBatch(
    session: LedgerSession,
    plan: Extract<ChangePlan, { kind: 'range' | 'since-last' }>,
    head: { sha: string; branch: string },
    notices: string[]
  ): Promise<ChangeBatch> {
    const { project } = session
    const documented = project.documented?.sha
    const batch = session.resending
      ? await this.reader.resentBatch(session.resent(), documented ?? head.sha, head.branch)
      : await this.reader.ledgerBatch(plan, head, documented, notices)
    // The last documented commit moves only as far as the prompt describes.
    return fitBatch(applyRules(batch, await this.ledgerRules(project)))
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
    // What the dashboard's write says (a new dashboard opened) is shown with the run's notices.
    const known = session.notices.length
    const told = (): void => void run.notices?.push(...session.notices.slice(known))
    if (verdict.kind === 'skip') {
      const recorded = verdict.record?.batch ?? batch
      if (verdict.record && recorded && !dryRun)
        await this.record(session, {
          batch: recorded,
          result: 'skipped',
          note: verdict.record.note
        })
      told()
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
    told()
    // Only the approval's wait is `result: waiting`; a limit's, without approval, is a skip.
    return {
      ...skipped(why, run.source, run),
      kind: approval === 'dashboard' ? 'wait' : 'skip',
      held: true,
      ...(verdict.wouldStart ? { wouldStart: verdict.wouldStart } : {})
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

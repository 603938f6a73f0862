import { type GitHubApi, describeGitHubError } from '../github/api.js'
import type { RunEvent } from '../github/event.js'
import { DASHBOARD_LABEL, type Waiting } from '../records/ledger.js'
import { errorText } from '../runner/errors.js'
import type { Logger } from '../runner/logger.js'
import { escapeMarkdown } from '../runner/markdown.js'
import { counted } from '../runner/text.js'
import type { ApprovalMode } from '../policy/choices.js'
import type { TriggerSettings } from '../agent/settings.js'
import {
  APPROVAL_PHRASE,
  RESEND_PHRASE,
  tickedBatches,
  tickedResends
} from '../agent/ledger/approval-box.js'
import type { Dashboard } from '../agent/ledger/dashboard.js'
import type { LedgerSession } from '../agent/ledger/ledger-session.js'
import { Key } from '../agent/names.js'
import { type Gate, applyGates } from '../agent/gates/gate.js'
import { type TrustInput, trust } from '../agent/gates/trust.js'

/**
 * An edit of the dashboard issue, with `approval: dashboard` or with an uncertain request's box
 * ticked in it: perhaps a tick. Payload alone.
 */
export function isApprovalTick(
  event: Pick<RunEvent, 'name' | 'action' | 'issue'>,
  settings: { approval?: ApprovalMode; jobId?: string }
): boolean {
  return (
    (settings.approval === 'dashboard' || tickedResends(event.issue?.body ?? '').length > 0) &&
    settings.jobId === undefined &&
    event.name === 'issues' &&
    event.action === 'edited' &&
    event.issue !== undefined &&
    !event.issue.isPullRequest &&
    event.issue.labels.includes(DASHBOARD_LABEL)
  )
}

/** What the dashboard's current body and the ledger's own waiting batch say together. */
export type TickReading =
  | { kind: 'none' }
  /** Ticked boxes, none of them the batch the ledger holds: started, replaced or never there. */
  | { kind: 'gone'; ticked: string[] }
  /** The waiting batch's box, ticked, but it was approved already. */
  | { kind: 'again'; batch: string; by: string }
  | { kind: 'tick'; batch: string }

/** A tick counts only on the batch the ledger says awaits approval; the event's text is not read. */
export function readTick(body: string, waiting: Waiting | null): TickReading {
  const ticked = tickedBatches(body)
  if (ticked.length === 0) return { kind: 'none' }
  const batch = waiting?.batch
  if (!batch || !ticked.includes(batch)) return { kind: 'gone', ticked }
  if (waiting.approvedBy) return { kind: 'again', batch, by: waiting.approvedBy }
  return { kind: 'tick', batch }
}

/** The changes wait for a tick: what the dashboard and the summary say. */
export const awaitingWhy = (changes: number): string =>
  `Awaiting approval ('${Key.Approval}: dashboard'): ${counted(changes, 'change')} ${changes === 1 ? 'waits' : 'wait'} on the dashboard until someone with '${Key.RequiredPermission}' ticks '${APPROVAL_PHRASE}'. Later changes join the same batch.`

export interface TickContext {
  dashboard: Dashboard
  session: LedgerSession
  github: GitHubApi
  event: RunEvent
  settings: Pick<TriggerSettings, 'requiredPermission' | 'allowedBots'> & { dryRun: boolean }
  log: Logger
  signal?: AbortSignal
}

/** A login as a reply names it: GitHub's own characters only. */
const LOGIN = /^[A-Za-z0-9-]{1,39}(\[bot\])?$/

/**
 * Judges an edit of the dashboard: the ticker is the event's sender, checked like any trigger; a
 * refused tick is undone (the box written unticked) and answered, and the step succeeds. Returns
 * who approved, or why nothing starts.
 */
export async function judgeTick(
  ctx: TickContext
): Promise<{ approvedBy: string; resend?: string[] } | { skip: string }> {
  const { dashboard, session, event } = ctx
  if (dashboard.number === undefined || dashboard.number !== event.issue?.number)
    return {
      skip: `Issue #${event.issue?.number ?? '?'} is not the dashboard this action keeps${dashboard.url ? ` (${dashboard.url})` : ''}: its boxes start nothing.`
    }
  const resend = resendTicks(dashboard.text, session, event)
  if (resend.length) {
    const verdict = await judgeTicker(ctx, `'${RESEND_PHRASE}' for ${resend.join(', ')}`)
    return 'skip' in verdict ? verdict : { ...verdict, resend }
  }
  const reading = readTick(dashboard.text, session.project.waiting)
  switch (reading.kind) {
    case 'none':
      return {
        skip: `The dashboard was edited, but no '${APPROVAL_PHRASE}' box is ticked: nothing to start.`
      }
    case 'gone':
      return {
        skip: `The ticked box names batch ${reading.ticked.join(', ')}, which no longer waits (it was started, or replaced): nothing was started.`
      }
    case 'again':
      return {
        skip: `Batch ${reading.batch} was approved already by @${reading.by}: nothing is started twice; it starts once the limits allow.`
      }
  }
  // Only an edit that ticked the box itself is its sender's tick: one ticked before it (kept by the
  // action's own write, or left by an edit whose run never ran) is judged on that edit's event.
  // The payload's earlier body can only hold a tick back, never make one.
  if (event.edit && !tickedBy(event.edit.bodyBefore, reading.batch))
    return {
      skip: `The box of batch ${reading.batch} was ticked before this edit, which did not tick it${event.edit.bodyBefore === undefined ? ' (it left the body alone)' : ''}: nothing was started. To start the batch, untick the box and tick it again.`
    }
  return judgeTicker(ctx, `'${APPROVAL_PHRASE}' for batch ${reading.batch}`)
}

/**
 * The uncertain entries this edit ticked the box of, among those the ledger holds: a box ticked
 * before the edit (the payload's earlier body has it ticked) is not this edit's.
 */
function resendTicks(
  body: string,
  session: LedgerSession,
  event: Pick<RunEvent, 'edit'>
): string[] {
  const held = new Set(session.project.uncertain.map(u => u.id))
  const before = event.edit?.bodyBefore
  return tickedResends(body).filter(
    id =>
      held.has(id) && !(event.edit && (before === undefined || tickedResends(before).includes(id)))
  )
}

/** The controls of a tick on the dashboard: who ticked (the approval gate then judges the batch). */
export const TICK_GATES: readonly Gate<TrustInput>[] = [trust]

/** The ticker (the event's sender), checked like any trigger; a refused tick is undone and answered. */
async function judgeTicker(
  ctx: TickContext,
  box: string
): Promise<{ approvedBy: string } | { skip: string }> {
  const { event } = ctx
  const stop = await applyGates(TICK_GATES, {
    event,
    settings: ctx.settings,
    github: async () => ctx.github,
    signal: ctx.signal
  })
  if (!stop) return { approvedBy: event.actor }
  const refused = stop.why
  const who = LOGIN.test(event.actor) ? `@${event.actor}` : undefined
  const what = `ticked ${box}, but ${refused.replace(/\.$/, '')}.`
  const why = `${who ?? 'Someone'} ${what}`
  if (ctx.settings.dryRun) return { skip: `${why} Dry run: the box stays as it is.` }
  const undone = await undo(ctx, why, `${who ?? 'Someone'} ${escapeMarkdown(what)}`)
  return { skip: `${why} ${undone} Nothing was started.` }
}

/** Whether an edit ticked the batch's box: the body before it had that box unticked. */
const tickedBy = (bodyBefore: string | undefined, batch: string): boolean =>
  bodyBefore !== undefined && !tickedBatches(bodyBefore).includes(batch)

/** The box written unticked (the whole body is the action's), and a reply on the dashboard. */
async function undo(ctx: TickContext, why: string, reply: string): Promise<string> {
  const { session, github, dashboard, log } = ctx
  let said = ''
  try {
    await session.recordTick('refused', why)
    said = 'The box was unticked.'
  } catch (error) {
    log.warning(`Could not untick the box on the dashboard: ${errorText(error)}`)
  }
  try {
    await github.createComment(
      dashboard.number as number,
      `⛔ **Mintlify agent**: ${reply} The box was unticked and nothing was started; someone with that permission can tick it.`
    )
    said += ' A reply says why.'
  } catch (error) {
    log.warning(`Could not reply on the dashboard: ${describeGitHubError(error)}.`)
  }
  return said.trim()
}

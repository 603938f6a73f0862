import { HOUR_MS } from '../../runner/duration.js'
import {
  type BodyEdit,
  type DashboardIssue,
  MOST_EDITS_READ,
  sameActor
} from '../../github/dashboard-issues.js'
import { ExplainedError } from '../../runner/errors.js'
import type { RecordSigner } from '../../records/record.js'
import {
  LEDGER_FORMAT,
  type Ledger,
  emptyLedger,
  readDashboardState
} from '../../records/ledger.js'

/**
 * Which issue holds the ledger, among those that may: the labelled issues and the action's own
 * issues of the dashboard's title. Anyone with triage rights can label an issue, and anyone who can
 * edit an issue can restore an earlier body from its edit history, so neither a label nor a body
 * is trusted by itself:
 * - a state is read only as written in its issue (its signature names the issue): a copy elsewhere
 *   is refused; one bound to its issue is read whoever opened it (an earlier `github-token`'s
 *   identity), with a notice; one from before states named their issue, only in an issue the
 *   action's identity opened;
 * - of several, the one the action wrote last is the ledger, however recently others were touched;
 * - a body someone else edited after the action's last write holds the action's state only when
 *   that state is the one the action's last write put there (a tick keeps it, a restore does not).
 */
export interface DashboardChoice {
  /** The issue that holds the ledger; none: a new one is opened on first need. */
  issue?: DashboardIssue
  ledger: Ledger
  /** What people should hear (the issues left aside, a label put back). */
  notices: string[]
  /** The issue was found again by its author and title: its label goes back on. */
  relabel: boolean
  /**
   * The dashboard's issue was found but holds no state this action can read (edited by hand,
   * deleted, another key): what earlier runs recorded is unknown.
   */
  stateUnread?: boolean
  /** The state that issue held is gone (deleted or garbled): what to warn of, and to show. */
  lost?: LostState
}

/** A hidden state found deleted or garbled: the run's warning and the page's line. */
export interface LostState {
  warning: string
  afresh: NonNullable<Ledger['afresh']>
}

/**
 * How long after the state was written (the action's clock) its write may reach GitHub (GitHub's
 * clock, in whole seconds): an edit by the action later than this wrote a newer state. A version
 * written less than this before the action's last write is not told apart from it.
 */
export const WRITE_SLACK_MS = 10_000

/**
 * The dashboard holds a state a newer version of the action wrote, in a format this one does not
 * know: this version neither reads nor writes it, and starts nothing it could not record.
 */
export class NewerLedgerError extends ExplainedError {}

/** What a run says of a dashboard a newer version wrote; `outcome` says what this run did. */
export const newerLedger = (url: string, format: number, outcome: string): NewerLedgerError =>
  new NewerLedgerError(
    `The dashboard ${url} was written by a newer version of the action (its state is in format ${format}; this version reads formats up to ${LEDGER_FORMAT}), so this version leaves it as it is${outcome}. Update this workflow's 'uses:' pin of mintlify/agent-action (or of its sub-action) to the version your other workflows use, or a newer one.`
  )

interface Verified {
  issue: DashboardIssue
  ledger: Ledger
  legacy: boolean
}

/**
 * The dashboard among `candidates`, or an explained refusal when the newest state the action wrote
 * is not where it can be trusted (restored to an older version, or only a copy of it found).
 */
export function chooseDashboard(
  candidates: DashboardIssue[],
  ctx: { signer: RecordSigner; repository: string; viewer: string; label: string; title: string }
): DashboardChoice {
  const notices: string[] = []
  const verified: Verified[] = []
  const copies: { issue: DashboardIssue; writtenIn: number; ledger: Ledger }[] = []
  let unreadable: DashboardIssue | undefined
  const seen = new Set<number>()
  for (const issue of candidates) {
    if (seen.has(issue.number)) continue
    seen.add(issue.number)
    const state = readDashboardState(issue.body, ctx.signer, ctx.repository, issue.number)
    const own = sameActor(issue.author, ctx.viewer)
    // Another workflow runs a newer version: its ledger is never written over, nor guessed at.
    if (own && !state.ok && state.why === 'newer')
      throw newerLedger(issue.url, state.format, ': nothing was started')
    // A state bound to this issue verifies only where the action wrote it, with the key: after a
    // switch of 'github-token' the dashboard's author is the earlier token's identity.
    if (state.ok && (own || !state.legacy))
      verified.push({ issue, ledger: state.ledger, legacy: state.legacy })
    else if (!state.ok && state.why === 'elsewhere')
      copies.push({ issue, writtenIn: state.writtenIn, ledger: state.ledger })
    else if (!own && (state.ok || state.why !== 'none'))
      notices.push(
        `${ref(issue)} has the label '${ctx.label}' but was opened by @${issue.author || 'ghost'}, not by this action's identity @${ctx.viewer}, so it is not the dashboard and nothing in it is used: take the label off.`
      )
    else if (own && issue.labels.includes(ctx.label) && issue.title === ctx.title)
      unreadable ??= issue
    else if (own && issue.labels.includes(ctx.label) && !state.ok && state.why === 'none')
      // Another issue of the same identity (a link check, a report) the label was put on: taking
      // it as an empty ledger would lose the real one's state and write over the issue.
      notices.push(
        `${ref(issue)} has the label '${ctx.label}' but is not the dashboard (its title is not '${ctx.title}' and it holds no dashboard state), so it is left alone: take the label off.`
      )
  }
  const newest = verified.sort((a, b) => newer(b.ledger, a.ledger))[0]
  for (const copy of copies) {
    const where = `${ref(copy.issue)} holds a copy of the dashboard state written in #${copy.writtenIn}`
    if (!newest || newer(copy.ledger, newest.ledger) > 0)
      throw new ExplainedError(
        `${where} (${when(copy.ledger)}), newer than any state found where it was written${newest ? ` (${ref(newest.issue)} holds one of ${when(newest.ledger)})` : ''}, so nothing was started: the state of #${copy.writtenIn} was replaced or the issue is gone. Restore #${copy.writtenIn}'s newest body from its edit history (and its label '${ctx.label}'), or, to start a new ledger, take the label off ${ref(copy.issue)}.`
      )
    notices.push(`${where}, an older one: it is not used; take the label off ${ref(copy.issue)}.`)
  }
  if (!newest) {
    const lost = unreadable && lostState(unreadable, stateOf(unreadable, ctx), ctx.viewer)
    return {
      ...(unreadable ? { issue: unreadable } : {}),
      ...(lost ? { lost } : {}),
      ledger: lost ? { ...emptyLedger(), afresh: lost.afresh } : emptyLedger(),
      notices,
      relabel: false,
      stateUnread: Boolean(unreadable)
    }
  }
  for (const older of verified.slice(1))
    notices.push(
      `${ref(older.issue)} also holds a dashboard state, older than ${ref(newest.issue)}'s (${when(older.ledger)} against ${when(newest.ledger)}): it is not used; close it or take its label off.`
    )
  const byAction = actionEdits(newest.issue, newest.ledger, ctx.viewer)
  const restored = restoredBy(newest.issue, newest.ledger, byAction, newest.legacy)
  if (restored === 'unknown')
    throw new ExplainedError(
      `The dashboard ${newest.issue.url} was edited by others so often since this action last wrote it that its last write is not among the newest ${MOST_EDITS_READ} edits GitHub lists, so whether its state is the newest the action wrote cannot be told, and nothing was started. To start the ledger afresh, delete its hidden state (the last HTML comment of the body).`
    )
  if (restored)
    throw new ExplainedError(
      `The dashboard ${newest.issue.url} holds a state older than the one this action last wrote there: @${restored.by || 'ghost'} changed its body afterwards (${new Date(restored.at).toISOString()}), restoring an earlier version or editing it. Nothing was started, as the budget and the last documented commit would move back. Restore the newest version the action wrote from the issue's edit history; or, to start the ledger afresh, delete its hidden state (the last HTML comment of the body).`
    )
  const before = newest.ledger.writers?.at(-1) ?? newest.issue.author
  if (!sameActor(before, ctx.viewer))
    notices.push(
      `The dashboard ${newest.issue.url} was written by @${before || 'ghost'}, and 'github-token' is now @${ctx.viewer}: its state verifies with the API key, so it stays the ledger, and this run writes it as @${ctx.viewer}. Edits by either identity count as the action's own.`
    )
  const relabel = !newest.issue.labels.includes(ctx.label)
  if (relabel)
    notices.push(
      `The dashboard ${newest.issue.url} had lost its label '${ctx.label}'${newest.issue.state === 'open' ? '' : ' and was closed'}: found again by its author and title, it keeps its state and gets its label back.`
    )
  if (newest.issue.locked)
    notices.push(
      `The dashboard ${newest.issue.url} is locked: people cannot tick its boxes until it is unlocked.`
    )
  return { issue: newest.issue, ledger: newest.ledger, notices, relabel }
}

/**
 * Someone other than the action edited the body after its last write, and the state there is not
 * that write's (written more than WRITE_SLACK_MS before the action's newest edit, or that edit is
 * not among those GitHub listed): who made the last edit, and when. `unknown`: the action's newest
 * edit lies beyond the edits read (see needsOlderEdits), so it cannot be told.
 */
function restoredBy(
  issue: DashboardIssue,
  ledger: Ledger,
  byAction: (edit: BodyEdit) => boolean,
  legacy: boolean
): BodyEdit | 'unknown' | undefined {
  const last = issue.lastEdit ?? issue.edits[0]
  if (!last || byAction(last)) return undefined
  const own = issue.edits.find(byAction)
  if (!own && issue.olderEdits) return 'unknown'
  const written = legacy ? legacyWrittenBy(ledger) : ledger.writtenAt
  const slack = legacy ? LEGACY_SLACK_MS : WRITE_SLACK_MS
  if (own && written !== undefined && own.at <= written + slack) return undefined
  return last
}

/**
 * What tells the action's edits of `issue`, when the edits read hold none but more are listed (the
 * rollback check needs its newest write, so the caller reads on from the newest end); none when
 * the issue's state is not one the action wrote there, or its newest write is among those read.
 */
export function needsOlderEdits(
  issue: DashboardIssue,
  ctx: { signer: RecordSigner; repository: string; viewer: string }
): ((edit: BodyEdit) => boolean) | undefined {
  if (!issue.olderEdits) return undefined
  const state = readDashboardState(issue.body, ctx.signer, ctx.repository, issue.number)
  if (!state.ok || (state.legacy && !sameActor(issue.author, ctx.viewer))) return undefined
  const byAction = actionEdits(issue, state.ledger, ctx.viewer)
  const last = issue.lastEdit ?? issue.edits[0]
  if (!last || byAction(last) || issue.edits.some(byAction)) return undefined
  return byAction
}

/**
 * Which edits of the dashboard are the action's writes: those of this token's identity, of the one
 * that opened the issue, of those the state names as its writers, and of any GitHub App's bot.
 * `github-token` is GITHUB_TOKEN (`github-actions[bot]`) or an App's token: after a switch, and a
 * switch back, the other identity's writes may be newer than the state read, so they count however
 * old that state is. A person's edit is a tick or a restore.
 */
const actionEdits =
  (issue: DashboardIssue, ledger: Ledger, viewer: string) =>
  (edit: BodyEdit): boolean =>
    edit.bot ||
    [viewer, issue.author, ...(ledger.writers ?? [])].some(who => sameActor(edit.by, who))

/**
 * The dashboard's state is gone: deleted (`none`), or garbled, edited by hand or signed with
 * another key. The run starts a new ledger, never silently: it warns, and the page says so, with
 * what was lost and where its last version is (the issue's edit history).
 */
function lostState(issue: DashboardIssue, why: string, viewer: string): LostState {
  const edit = issue.lastEdit ?? issue.edits[0]
  const by = edit && !sameActor(edit.by, viewer) ? edit : undefined
  const how =
    why === 'none'
      ? `holds no hidden state: it was deleted${by ? ` (@${by.by || 'ghost'}'s edit of ${iso(by.at)})` : ''}`
      : `holds no state this action wrote with this API key (edited by hand${by ? `, last by @${by.by || 'ghost'} at ${iso(by.at)}` : ''}, or written with another key)`
  const lost =
    "the last documented commit (this run documents its own change only), the budget's history ('max-jobs' and 'max-credits' count from here), the changes that waited and the uncertain requests"
  const where = `Their last version is in the issue's edit history: the last version @${viewer} wrote${by ? ` before ${iso(by.at)}` : ''}; send what waited there with a prompt.`
  return {
    warning: `The dashboard ${issue.url} ${how}, so a new ledger starts from this change, and what the state recorded is lost: ${lost}. ${where}`,
    afresh: {
      at: by?.at ?? issue.lastEdit?.at ?? 0,
      why: why === 'none' ? 'deleted' : 'unreadable',
      ...(by ? { by: by.by } : {})
    }
  }
}

const iso = (at: number): string => new Date(at).toISOString()

/**
 * A job on GitHub runs six hours at most: every write of one run falls within this long of the
 * newest time its state names.
 */
const LEGACY_SLACK_MS = 6 * HOUR_MS

/**
 * A state from before states were stamped (no issue, no time): when a person could have ticked a
 * box in it (a batch waiting for approval, an uncertain request), a person's edit after the action's
 * may be that tick, so the state counts as written at the newest time it names (within
 * LEGACY_SLACK_MS); with no box to tick, a person's later edit can only have restored or rewritten
 * it, and the state is refused as the stamped ones are.
 */
function legacyWrittenBy(ledger: Ledger): number | undefined {
  const projects = Object.values(ledger.projects)
  const boxes = projects.some(p => p.waiting?.batch || p.uncertain.some(u => u.id))
  if (!boxes) return undefined
  const times = projects.flatMap(p => [
    p.documented?.at ?? 0,
    p.waiting?.since ?? 0,
    ...p.runs.map(r => r.at),
    ...p.jobs.flatMap(j => [j.startedAt, j.endedAt ?? 0, j.checkedAt ?? 0]),
    ...p.uncertain.map(u => u.at)
  ])
  return Math.max(0, ...times)
}

/** Above 0 when `a` is the newer state: written later, or, written at once, written more often. */
const newer = (a: Ledger, b: Ledger): number =>
  (a.writtenAt ?? 0) - (b.writtenAt ?? 0) || (a.version ?? 0) - (b.version ?? 0)

const when = (ledger: Ledger): string =>
  ledger.writtenAt ? `written ${new Date(ledger.writtenAt).toISOString()}` : 'undated'

const ref = (issue: DashboardIssue): string => `#${issue.number}`

const stateOf = (
  issue: DashboardIssue,
  ctx: { signer: RecordSigner; repository: string }
): string => {
  const state = readDashboardState(issue.body, ctx.signer, ctx.repository, issue.number)
  return state.ok ? 'ok' : state.why
}

import { codeSpan, escapeMarkdown } from '../../runner/markdown.js'
import type { Waiting } from '../../records/ledger.js'

/**
 * The waiting batch's checkbox on the dashboard (`approval: dashboard`): written by the action,
 * always unticked, and read back from the issue's current body to see whether someone ticked it.
 */
export const APPROVAL_PHRASE = 'Start the agent for these changes'

/**
 * A box the action writes, unticked: `phrase (kind \`id\`)`, the id tying a tick to the ledger's
 * own entry (a waiting batch, an uncertain request).
 */
const box = (phrase: string, kind: string, id: string): string =>
  `- [ ] ${phrase} (${kind} ${codeSpan(id)})`

/** Its ticked form as GitHub writes it when someone clicks it: `- [x] …`, at the start of a line. */
const ticked = (phrase: string, kind: string): RegExp =>
  new RegExp(`^ {0,3}[-*+] \\[[xX]\\] ${phrase} \\(${kind} \`([a-z0-9]{1,16})\`\\)[ \\t]*$`, 'gm')

/** At most this much of a body is searched: the dashboard's people part is far shorter. */
const MAX_BODY = 70_000

/** The ids of the ticked boxes in a dashboard body (any text: a person may have edited it). */
const tickedIds = (body: string, pattern: RegExp): string[] => [
  ...new Set([...body.slice(0, MAX_BODY).matchAll(pattern)].map(m => m[1] as string))
]

/** The checkbox line of a batch. */
export const approvalBox = (batch: string): string => box(APPROVAL_PHRASE, 'batch', batch)
const TICKED = ticked(APPROVAL_PHRASE, 'batch')

/** The batch ids whose box is ticked in a dashboard body. */
export const tickedBatches = (body: string): string[] => tickedIds(body, TICKED)

/**
 * An uncertain request's checkbox: ticked by someone with `required-permission`, its changes are
 * sent again, once (the entry leaves the ledger when they are).
 */
export const RESEND_PHRASE = 'Send these changes again'
export const resendBox = (id: string): string => box(RESEND_PHRASE, 'uncertain', id)
const TICKED_RESEND = ticked(RESEND_PHRASE, 'uncertain')

/** The uncertain entries whose box is ticked in a dashboard body. */
export const tickedResends = (body: string): string[] => tickedIds(body, TICKED_RESEND)

/**
 * A body the action writes, with the boxes of `ticked` batches left ticked: a tick someone made while
 * a run was deciding is kept (the run that tick started judges it), not written over.
 */
export function keepTicks(
  body: string,
  ticked: readonly string[],
  resends: readonly string[] = []
): string {
  if (!ticked.length && !resends.length) return body
  return body.replace(/^- \[ \] (.*)$/gm, (line, rest: string) =>
    ticked.some(batch => line === approvalBox(batch)) || resends.some(id => line === resendBox(id))
      ? `- [x] ${rest}`
      : line
  )
}

/** A batch id: the moment it began to wait, in base 36 (unique per repository and project). */
export const newBatchId = (at: number): string => Math.max(0, Math.floor(at)).toString(36)

const when = (at: number | undefined): string =>
  at ? ` at ${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC` : ''

/**
 * What the dashboard says of a batch's approval: the box, what the run would do and its estimated
 * credits with the budget as it stands, or who approved.
 */
export function approvalLines(
  waiting: Waiting,
  cost: { creditsPerRun: number; budget?: string } = { creditsPerRun: 180 }
): string[] {
  if (!waiting.batch) return []
  if (waiting.approvedBy)
    return [
      `✅ Approved by ${escapeMarkdown(`@${waiting.approvedBy}`)}${when(waiting.approvedAt)} (batch ${codeSpan(waiting.batch)}): it starts as soon as the limits above allow; ticking again changes nothing.`,
      ''
    ]
  const would = waiting.wouldDo
  const decision =
    would?.decision === 'follow-up'
      ? `send these changes as a follow-up to job ${codeSpan(would.job ?? '?')}, whose docs pull request is open`
      : 'start a new job'
  const size = would ? ` with a prompt of ${kilobytes(would.promptBytes)}` : ''
  const budget = cost.budget ? ` Budget now: ${escapeMarkdown(cost.budget)}.` : ''
  return [
    approvalBox(waiting.batch),
    '',
    `If started now, the run would ${decision}${size}, about ${cost.creditsPerRun.toLocaleString('en-US')} credits (\`credits-per-run\`, an estimate); it decides again when the box is ticked.${budget} Ticking needs the policy's \`required-permission\` on this repository; a box that stays ticked with nothing started (a newer run took the tick's run's place in the concurrency group) is to be unticked and ticked again.`,
    ''
  ]
}

const kilobytes = (n: number): string => `${Math.max(0.1, Math.round(n / 100) / 10)} KB`

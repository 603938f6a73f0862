import type { ProjectLedger, RunEntry, Waiting } from '../../records/ledger.js'
import type { Logger } from '../../runner/logger.js'
import { counted } from '../../runner/text.js'
import type { BudgetState } from '../../agent/ledger/budget.js'
import type { ChangeSettings } from '../../agent/settings.js'
import type { DocsPullUpdate } from '../../agent/ledger/expiry.js'
import type { ChangeBatch } from '../../agent/batch.js'
import type { WouldStart } from '../../agent/prepared-run.js'
import type { ChangePlan } from '../change-plan.js'
import type { FoldContext, FoldDecision } from '../../agent/ledger/fold.js'

/**
 * What a gate says of a change run's batch: let it through to the next gate, end the run with a
 * reason (and, with `record`, that decision written to the ledger), or hold the batch on the
 * dashboard with a reason, where the next run takes it up again. A dry run writes neither.
 */
export type Verdict =
  | { kind: 'pass' }
  | { kind: 'skip'; why: string; record?: { note: string; batch?: ChangeBatch } }
  | { kind: 'hold'; why: string; written: HeldWrite; wouldStart?: WouldStart }

/** What a held batch keeps on the dashboard besides its changes: its approval, its range's start. */
export interface HeldWrite {
  /** With `approval: dashboard`: the batch's id, approval and what it would do, kept or set. */
  approval?: Partial<Waiting>
  /** On an empty ledger, the commit the waiting batch's range starts after. */
  base?: string
}

export const PASS: Verdict = { kind: 'pass' }

/** The ledger as the gates see it: the project's record, and what they learn on the way. */
export interface LedgerView {
  readonly project: ProjectLedger
  /** A tick's resend of uncertain changes: documented-already and covered-already do not stop it. */
  readonly resending?: readonly string[]
  /** The run of another workflow that covered this head already. */
  coveredBy(head: string): RunEntry | undefined
  /** Where `max-jobs` stands, when it is set. */
  budgetState(): BudgetState | undefined
  /** What a fold decision learnt of the ledger's job, kept for the run's next write. */
  noteSeen(seen?: FoldDecision['seen']): void
  /** What reads of docs pull requests learnt, kept for the run's next write. */
  noteUpdates(updates: DocsPullUpdate[]): void
}

/** The inputs the gates read: a new control's input is one more of the change settings. */
export type GateSettings = ChangeSettings

/** What the gates may read of GitHub through the change run's reader. */
export interface GateReads {
  /** A batch of no change at `head`: what the first run records as documented. */
  emptyBatch(head: string, branch: string): ChangeBatch
  prompt(batch: ChangeBatch, followUp: boolean): Promise<string>
  /** The commit before a batch's head. */
  parentOf(batch: ChangeBatch): Promise<string | undefined>
}

/** Before the batch is read: the plan, the branch's head and the ledger. */
export interface HeadInput {
  /**
   * `project` (`code-repositories`) passes no head gate: each repository's head is judged as it
   * is read.
   */
  plan: Extract<ChangePlan, { kind: 'range' | 'since-last' | 'project' }>
  head: { sha: string; branch: string }
  ledger: LedgerView
  settings: GateSettings
  reads: GateReads
  /** The wall clock (epoch ms). */
  now: () => number
  log: Logger
  /** What the user should see as notices; a gate may add to them. */
  notices: string[]
}

/** Once the batch is read and the change rules applied. */
export interface BatchInput extends HeadInput {
  batch: ChangeBatch
  /** Who approved the batch by this run's tick (`approval: dashboard`). */
  approvedBy?: string
  /** How a fold decision reads the earlier job and its docs pull request. */
  foldContext: FoldContext
}

/** Once the run has decided where the batch goes (folded into an open job, or a new job). */
export interface DecidedInput extends BatchInput {
  decision: FoldDecision
}

/** One control of a change run: fed the batch, the ledger and the settings; tested alone. */
export interface Gate<Input extends HeadInput> {
  /** The control's name, as the inputs and docs say it. */
  readonly name: string
  check(input: Input): Verdict | Promise<Verdict>
}

/** The batch's changes and whether they wait, as the reasons say it. */
export function changesWait(count: number): string {
  return `${counted(count, 'change')} ${count === 1 ? 'waits' : 'wait'}`
}

/** Approved by this run's tick: the approval stays with the batch while a limit holds it. */
export function approvalKept(input: BatchInput): HeldWrite {
  return input.approvedBy
    ? { approval: { approvedBy: input.approvedBy, approvedAt: input.now() } }
    : {}
}

import type { ProjectLedger, RunEntry } from '../../records/ledger.js'
import type { Logger } from '../../runner/logger.js'
import { counted } from '../../runner/text.js'
import type { BudgetState } from '../../agent/ledger/budget.js'
import type { ChangeSettings } from '../../agent/settings.js'
import type { DocsPullUpdate } from '../../agent/ledger/expiry.js'
import type { ChangeBatch } from '../../agent/batch.js'
import type { HeldWrite } from '../../agent/gates/gate.js'
import type { ChangePlan } from '../change-plan.js'
import type { FoldDecision } from '../../agent/ledger/fold.js'
import type { FoldContext } from '../fold.js'

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

/** The batch's changes and whether they wait, as the reasons say it. */
export function changesWait(count: number): string {
  return `${counted(count, 'change')} ${count === 1 ? 'waits' : 'wait'}`
}

/**
 * What a held batch keeps: this run's tick (the approval stays with the batch while a limit holds
 * it) and, on an empty ledger, the commit its range starts after, so that later changes join it.
 */
export async function heldWrite(input: BatchInput): Promise<HeldWrite> {
  const base = await rangeBase(input)
  return {
    ...(base ? { base } : {}),
    ...(input.approvedBy
      ? { approval: { approvedBy: input.approvedBy, approvedAt: input.now() } }
      : {})
  }
}

/** On an empty ledger, the commit before the batch: where the waiting batch's range starts. */
export async function rangeBase({ ledger, batch, reads }: BatchInput): Promise<string | undefined> {
  return ledger.project.documented ? undefined : (batch.base ?? (await reads.parentOf(batch)))
}

/** A change on its own, once it would start a job: what its limits read. */
export interface OwnInput {
  settings: GateSettings
  now: () => number
  /** The change, as the reasons say it: "pull request #42", "this push". */
  what: string
  /** The dashboard's counting ledger, when a budget counts this run. */
  ledger?: { budgetState(): BudgetState | undefined }
}

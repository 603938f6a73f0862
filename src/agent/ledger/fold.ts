/**
 * What the ledger knows of folding (a change run's batch sent to a job already started): which of
 * its jobs' states may still take a batch, and the decision's shape, which the ledger records (what
 * was learnt of its job on the way). Where a batch goes is decided by the change run
 * (src/changes/fold.ts), not here.
 */

/** Where a batch is folded: the project's job whose docs pull request is open, or which still runs. */
export interface FoldTarget {
  jobId: string
  /** The job's docs pull request as the service reports it, when it has one yet. */
  docsPr?: string
}

export interface FoldDecision {
  target?: FoldTarget
  /** Why a new job starts although folding was on, when the user should hear it (a notice). */
  notice?: string
  /** What was decided and why, for the log. */
  info: string
  /** What was learnt of the ledger's job on the way, for the ledger: `merged`, `closed`, `ended`. */
  seen?: { jobId: string; state: string; prLink?: string; prCreatedAt?: number; endedAt?: number }
}

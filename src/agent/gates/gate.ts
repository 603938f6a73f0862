import type { Waiting } from '../../records/ledger.js'
import type { ChangeBatch } from '../batch.js'
import type { WouldStart } from '../prepared-run.js'

/**
 * What a control says of a run: let it through to the next gate, end the run with a reason (and,
 * with `record`, that decision written to the ledger), or hold the batch on the dashboard with a
 * reason, where the next run (or a tick) takes it up again. A dry run writes neither.
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

/**
 * One control, for every trigger that lists it: fed what its trigger knows at the gate's moment,
 * tested alone. `says` is what docs/architecture.md shows of it (generated from the lists of each
 * trigger, so the documented order is the code's).
 */
export interface Gate<Input> {
  /** The control's name, as the policy file and the docs say it. */
  readonly name: string
  /** What it does, in one sentence, for the documented order. */
  readonly says: string
  check(input: Input): Verdict | Promise<Verdict>
}

/** The first gate that stops the run, and what it said; none when all pass. */
export async function applyGates<Input>(
  gates: readonly Gate<Input>[],
  input: Input
): Promise<Exclude<Verdict, { kind: 'pass' }> | undefined> {
  for (const gate of gates) {
    const verdict = await gate.check(input)
    if (verdict.kind !== 'pass') return verdict
  }
  return undefined
}

import { approval } from './approval.js'
import { budget } from './budget.js'
import { coveredAlready } from './covered-already.js'
import { documentedAlready } from './documented-already.js'
import { firstRun } from './first-run.js'
import type { BatchInput, DecidedInput, Gate, HeadInput, Verdict } from './gate.js'
import { maxOpen } from './max-open.js'
import { nothingLeft } from './nothing-left.js'

/**
 * The gates of a change run with the dashboard, in the order they are applied (docs/architecture.md
 * tells the steps around them). The first that does not pass ends the run; a gate's place is the
 * first moment it has what it needs: the head, then the batch, then the fold decision.
 */
export const GATES: {
  /** Once the branch's head is known, before any change is read. */
  head: readonly Gate<HeadInput>[]
  /** Once the batch is read and the change rules applied. */
  batch: readonly Gate<BatchInput>[]
  /** Once the run knows whether the batch folds into an open job or starts a new one. */
  decided: readonly Gate<DecidedInput>[]
} = {
  head: [documentedAlready, coveredAlready, firstRun],
  batch: [nothingLeft, approval, budget],
  decided: [maxOpen]
}

/** The first gate that stops the batch, and what it said; none when all pass. */
export async function applyGates<Input extends HeadInput>(
  gates: readonly Gate<Input>[],
  input: Input
): Promise<Exclude<Verdict, { kind: 'pass' }> | undefined> {
  for (const gate of gates) {
    const verdict = await gate.check(input)
    if (verdict.kind !== 'pass') return verdict
  }
  return undefined
}

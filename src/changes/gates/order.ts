import { budget } from '../../agent/gates/budget.js'
import type { Gate } from '../../agent/gates/gate.js'
import { quietHoursGate } from '../../agent/gates/quiet-hours.js'
import { type TrustInput, trust } from '../../agent/gates/trust.js'
import { batchSize } from '../change-rules.js'
import { approval } from './approval.js'
import { coveredAlready } from './covered-already.js'
import { documentedAlready } from './documented-already.js'
import { firstRun } from './first-run.js'
import {
  type BatchInput,
  type DecidedInput,
  type HeadInput,
  type OwnInput,
  heldWrite
} from './gate.js'
import { maxOpen } from './max-open.js'
import { nothingLeft } from './nothing-left.js'

/**
 * A shared limit fed from what a change run's batch input knows: what it holds is the batch's
 * changes, with what the dashboard keeps of them (read only once it holds).
 */
const onBatch = <I>(gate: Gate<I>, input: (batch: BatchInput) => I): Gate<BatchInput> => ({
  name: gate.name,
  says: gate.says,
  check: async batch => {
    const verdict = await gate.check(input(batch))
    return verdict.kind === 'hold' ? { ...verdict, written: await heldWrite(batch) } : verdict
  }
})

/**
 * The gates of a change run with the dashboard, in the order they are applied (docs/architecture.md
 * shows them, generated from here). The first that does not pass ends the run; a gate's place is
 * the first moment it has what it needs: the head, then the batch, then the fold decision.
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
  batch: [
    nothingLeft,
    approval,
    onBatch(quietHoursGate, input => ({
      settings: input.settings,
      now: input.now,
      approved: Boolean(input.approvedBy ?? input.ledger.project.waiting?.approvedBy),
      holds: { changes: batchSize(input.batch) }
    })),
    onBatch(budget, input => ({
      ledger: input.ledger,
      settings: input.settings,
      now: input.now,
      holds: { changes: batchSize(input.batch) }
    }))
  ],
  decided: [maxOpen]
}

/**
 * The gates of a change on its own (no ledger, a pull request not merged yet, another branch): who
 * opened an unmerged pull request, then the limits, which skip it rather than hold it (it has no
 * place on the dashboard; a later push runs again).
 */
export const OWN_GATES: {
  /** Before the pull request is read: only for one not merged yet (anyone can open one). */
  opened: readonly Gate<TrustInput>[]
  /** Once it is known to start a job. */
  limits: readonly Gate<OwnInput>[]
} = {
  opened: [trust],
  limits: [
    {
      name: quietHoursGate.name,
      says: quietHoursGate.says,
      check: input => quietHoursGate.check({ ...input, holds: { onItsOwn: input.what } })
    },
    {
      name: budget.name,
      says: budget.says,
      check: input =>
        input.ledger
          ? budget.check({ ...input, ledger: input.ledger, holds: { onItsOwn: input.what } })
          : { kind: 'pass' }
    }
  ]
}

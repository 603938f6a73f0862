import { overBudget } from '../../agent/ledger/budget.js'
import { batchSize } from '../change-rules.js'
import { type BatchInput, type Gate, PASS, approvalKept, changesWait } from './gate.js'

/**
 * `max-jobs` and `max-credits`: with the window's jobs and follow-ups (or the credits they are
 * estimated at) used up, the batch waits on the dashboard until the oldest leaves the window; the
 * next run takes it.
 */
export const budget: Gate<BatchInput> = {
  name: 'max-jobs',
  check(input) {
    const { ledger, settings, batch, now } = input
    const state = ledger.budgetState()
    if (!state || state.left !== 0) return PASS
    return {
      kind: 'hold',
      why: `${overBudget(state, settings, now())} ${changesWait(batchSize(batch))} on the dashboard, and the next run takes them.`,
      written: approvalKept(input)
    }
  }
}

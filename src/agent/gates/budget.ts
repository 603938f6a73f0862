import type { Limits } from '../../policy/budget.js'
import { counted } from '../../runner/text.js'
import { type BudgetState, overBudget } from '../ledger/budget.js'
import { type Gate, PASS } from './gate.js'

/** What the budget gate reads: where the budgets stand, and what it would hold. */
export interface BudgetInput {
  ledger: { budgetState(): BudgetState | undefined }
  settings: Limits
  now: () => number
  /**
   * What waits when over budget: the changes of the dashboard's batch (held there, the next run
   * takes them; the trigger says what the dashboard keeps of them), or a change on its own,
   * outside the batch (skipped: a later push runs again; once merged, the next batch takes it).
   */
  holds: { changes: number } | { onItsOwn: string }
}

/**
 * `max-jobs` and `max-credits` (src/agent/ledger/budget.ts counts them): with the window's jobs
 * and follow-ups, or the credits they are estimated at, used up, nothing starts until the oldest
 * leaves the window. The one budget control of every trigger that starts by itself; a person's
 * request (an issue, a comment, a review) is counted, never held.
 */
export const budget: Gate<BudgetInput> = {
  name: 'max-jobs / max-credits',
  says: 'the budget (`max-jobs`, `max-credits`) has room for one more job or follow-up; otherwise the changes wait on the dashboard until the oldest start leaves the window (a change on its own is skipped)',
  check({ ledger, settings, now, holds }) {
    const state = ledger.budgetState()
    if (!state || state.left !== 0) return PASS
    const over = overBudget(state, settings, now())
    if ('onItsOwn' in holds)
      return {
        kind: 'skip',
        why: `${over} Nothing starts for ${holds.onItsOwn}, which runs on its own, outside the dashboard's batch: a later push to it runs again, and once merged it is documented with the next batch.`
      }
    return {
      kind: 'hold',
      why: `${over} ${counted(holds.changes, 'change')} ${holds.changes === 1 ? 'waits' : 'wait'} on the dashboard, and the next run takes them.`,
      written: {}
    }
  }
}

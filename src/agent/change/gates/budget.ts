import { batchSize } from '../change-rules.js'
import { type BatchInput, type Gate, PASS, approvalKept, changesWait } from './gate.js'

/**
 * `max-jobs`: with the window's jobs and follow-ups used up, the batch waits on the dashboard until
 * the oldest leaves the window; the next run takes it.
 */
export const budget: Gate<BatchInput> = {
  name: 'max-jobs',
  check(input) {
    const { ledger, settings, batch, now } = input
    const state = ledger.budgetState()
    if (!state || state.left !== 0 || !settings.maxJobs) return PASS
    const until = new Date(state.freesAt ?? now()).toISOString().slice(0, 16).replace('T', ' ')
    return {
      kind: 'hold',
      why: `Over budget: ${state.used} jobs and follow-ups in the window of 'max-jobs: ${settings.maxJobs.text}'; the next one frees at ${until} UTC. ${changesWait(batchSize(batch))} on the dashboard, and the next run takes them.`,
      written: approvalKept(input)
    }
  }
}

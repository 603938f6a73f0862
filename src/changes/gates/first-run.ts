import { type HeadInput } from './gate.js'
import { type Gate, PASS } from '../../agent/gates/gate.js'

/**
 * A catch-up on a ledger with no last documented commit starts nothing: it records the branch's
 * head as documented, so that the next run documents what comes after it, not the whole history.
 */
export const firstRun: Gate<HeadInput> = {
  name: 'first run',
  says: 'the ledger has a last documented commit; a catch-up on an empty ledger records the head and starts nothing',
  check({ plan, head, ledger, reads }) {
    if (ledger.project.documented || plan.kind !== 'since-last') return PASS
    return {
      kind: 'skip',
      why: `The dashboard had no last documented commit: ${head.sha.slice(0, 12)} on ${head.branch} is recorded as documented, and nothing is started. The next run documents what comes after it.`,
      record: {
        note: 'first run: the branch head is recorded as documented',
        batch: reads.emptyBatch(head.sha, head.branch)
      }
    }
  }
}

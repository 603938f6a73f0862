import { type HeadInput } from './gate.js'
import { type Gate, PASS } from '../../agent/gates/gate.js'

/** Another run (another workflow of the project, or a re-run) handled this head already. */
export const coveredAlready: Gate<HeadInput> = {
  name: 'covered by an earlier run',
  says: 'no other run (a second workflow, a redelivered event) took this head; otherwise the run ends',
  check({ head, ledger }) {
    const earlier = !ledger.resending && ledger.coveredBy(head.sha)
    if (!earlier) return PASS
    return {
      kind: 'skip',
      why: `The run ${earlier.url || earlier.run} covered ${head.sha.slice(0, 12)} already.`
    }
  }
}

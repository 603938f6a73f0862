import { type HeadInput } from './gate.js'
import { type Gate, PASS } from '../../agent/gates/gate.js'

/** The branch's head is the ledger's last documented commit: there is nothing new. */
export const documentedAlready: Gate<HeadInput> = {
  name: 'documented already',
  says: 'the event’s head is not the last documented commit; otherwise the run ends: nothing new',
  check({ head, ledger }) {
    if (ledger.resending || ledger.project.documented?.sha !== head.sha) return PASS
    return {
      kind: 'skip',
      why: `Everything up to ${head.sha.slice(0, 12)} on ${head.branch} is documented already.`
    }
  }
}

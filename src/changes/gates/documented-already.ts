import { type Gate, type HeadInput, PASS } from './gate.js'

/** The branch's head is the ledger's last documented commit: there is nothing new. */
export const documentedAlready: Gate<HeadInput> = {
  name: 'documented already',
  check({ head, ledger }) {
    if (ledger.resending || ledger.project.documented?.sha !== head.sha) return PASS
    return {
      kind: 'skip',
      why: `Everything up to ${head.sha.slice(0, 12)} on ${head.branch} is documented already.`
    }
  }
}

import type { ChangeBatch } from '../../agent/batch.js'
import { batchSize } from '../change-rules.js'
import { type BatchInput } from './gate.js'
import { type Gate, PASS, type Verdict } from '../../agent/gates/gate.js'

/**
 * The change rules (`paths`, the loop guard, `skip-label`, bots) left nothing of the batch, or it
 * was empty: nothing starts, and the ledger moves past these changes. A head older than the last
 * documented commit has nothing left either, and the ledger is not written at all.
 */
export const nothingLeft: Gate<BatchInput> = {
  name: 'nothing left',
  says: 'the change rules (`paths`, the loop guard, `skip-label`, bots) left changes in the batch, and the head is not older than the last documented commit; otherwise the run ends (recording the decision)',
  check: ({ batch }) =>
    batch.olderThanDocumented
      ? { kind: 'skip', why: `There is nothing to document: ${batch.olderThanDocumented}` }
      : nothingLeftOf(batch)
}

/** The same judgement where no ledger is kept (a change on its own). */
export function nothingLeftOf(batch: ChangeBatch): Verdict {
  if (batchSize(batch) > 0) return PASS
  const why =
    batch.skipped.length === 0 && batch.parts
      ? 'There is nothing to document: no code repository merged anything after its last documented commit (one seen for the first time has its newest commit recorded).'
      : batch.skipped.length === 0
        ? `There is nothing to document: ${batch.url || 'the range'} holds no commit or changed file.`
        : `There is nothing to document: ${batch.skipped.map(s => s.why).join(' ')}`
  return { kind: 'skip', why, record: { note: why } }
}

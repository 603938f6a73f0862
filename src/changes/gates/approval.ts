import { bytes } from '../../runner/text.js'
import { newBatchId } from '../../agent/ledger/approval-box.js'
import { awaitingWhy } from '../approval.js'
import { batchSize } from '../change-rules.js'
import { decideFold } from '../fold.js'
import { type BatchInput, rangeBase } from './gate.js'
import { type Gate, PASS } from '../../agent/gates/gate.js'

/**
 * `approval: dashboard`: a batch nobody approved yet waits on the dashboard with its checkbox (the
 * batch waiting already, joined by these changes), saying what a run would do with it now.
 */
export const approval: Gate<BatchInput> = {
  name: 'approval',
  says: 'with `approval: dashboard`, someone with `required-permission` ticked the batch’s box; otherwise it waits there with the box, what it would start and what that costs',
  async check(input) {
    const { settings, approvedBy, ledger, batch, foldContext, reads, now } = input
    const { project } = ledger
    if (settings.approval !== 'dashboard' || approvedBy || project.waiting?.approvedBy) return PASS
    const fold = settings.fold === 'open-pr' ? await decideFold(project, foldContext) : undefined
    ledger.noteSeen(fold?.seen)
    const target = fold?.target
    const prompt = await reads.prompt(batch, Boolean(target))
    const base = await rangeBase(input)
    return {
      kind: 'hold',
      why: awaitingWhy(batchSize(batch)),
      wouldStart: {
        decision: target ? 'follow-up' : 'new-job',
        ...(target ? { jobId: target.jobId } : {}),
        prompt
      },
      written: {
        base,
        approval: {
          batch: project.waiting?.batch ?? newBatchId(now()),
          wouldDo: {
            decision: target ? 'follow-up' : 'new-job',
            ...(target ? { job: target.jobId } : {}),
            promptBytes: bytes(prompt)
          }
        }
      }
    }
  }
}

// The documented order of the controls, generated from the gate lists each trigger applies, so
// that docs/architecture.md shows the code's order: `renderGateOrder` fills the part between
// <!-- gates --> and <!-- end -->. scripts/reference-tables.ts writes it with the reference.
import type { Gate } from '../src/agent/gates/gate.js'
import { TICK_GATES } from '../src/changes/approval.js'
import { GATES, OWN_GATES } from '../src/changes/gates/order.js'
import { ISSUE_GATES } from '../src/prompt/issue-run.js'
import { REVIEW_GATES } from '../src/review/review-run.js'

/** The page that holds the generated order, relative to the repository. */
export const ARCHITECTURE = 'docs/architecture.md'

/** One trigger's gates, in stages: what the run knows at each. */
interface TriggerGates {
  trigger: string
  where: string
  stages: { when?: string; gates: readonly Gate<never>[] }[]
}

/** Every trigger and its lists, as the flows apply them. */
export const TRIGGERS: readonly TriggerGates[] = [
  {
    trigger: 'A change run with the dashboard',
    where: '`src/changes/gates/order.ts`, `GATES`',
    stages: [
      { when: 'Once the head is known', gates: GATES.head },
      { when: 'Once the batch is read and the change rules applied', gates: GATES.batch },
      { when: 'Once the batch is folded or a new job decided', gates: GATES.decided }
    ]
  },
  {
    trigger: 'A change on its own (no dashboard, a pull request not merged yet, another branch)',
    where: '`src/changes/gates/order.ts`, `OWN_GATES`',
    stages: [
      { when: 'For a pull request not merged yet', gates: OWN_GATES.opened },
      { when: 'Once it would start a job', gates: OWN_GATES.limits }
    ]
  },
  {
    trigger: 'A tick of a batch’s box on the dashboard',
    where: '`src/changes/approval.ts`, `TICK_GATES`; then the batch’s gates above',
    stages: [{ gates: TICK_GATES }]
  },
  {
    trigger: 'An issue, a comment or a manual run',
    where: '`src/prompt/issue-run.ts`, `ISSUE_GATES`',
    stages: [{ gates: ISSUE_GATES }]
  },
  {
    trigger: 'A review or comment on a docs pull request',
    where: '`src/review/review-run.ts`, `REVIEW_GATES`',
    stages: [{ gates: REVIEW_GATES }]
  }
]

/** The Markdown of every trigger's gates, numbered in the order they are applied. */
export function gateOrder(triggers: readonly TriggerGates[] = TRIGGERS): string {
  const parts: string[] = []
  for (const { trigger, where, stages } of triggers) {
    parts.push(`**${trigger}** (${where}):`)
    let number = 0
    for (const { when, gates } of stages) {
      if (when) parts.push(`${when}:`)
      parts.push(gates.map(g => `${++number}. **${g.name}**: ${g.says}.`).join('\n'))
    }
  }
  return parts.join('\n\n')
}

const MARKER = /(<!-- gates -->)\n[\s\S]*?<!-- end -->/g

/** The page with a fresh order between the markers. */
export const renderGateOrder = (text: string): string =>
  text.replace(MARKER, (_all, open: string) => `${open}\n\n${gateOrder()}\n\n<!-- end -->`)

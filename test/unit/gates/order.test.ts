import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { type Gate, type Verdict, applyGates } from '../../../src/agent/gates/gate.js'
import { GATES, OWN_GATES } from '../../../src/changes/gates/order.js'
import { ARCHITECTURE, TRIGGERS, gateOrder, renderGateOrder } from '../../../scripts/gate-order.js'

const names = (gates: readonly Gate<never>[]) => gates.map(g => g.name)

describe('the order of the gates', () => {
  it('is, for a change run with the dashboard: the head, the batch, then the fold decision', () => {
    expect(names([...GATES.head, ...GATES.batch, ...GATES.decided])).toEqual([
      'documented already',
      'covered by an earlier run',
      'first run',
      'nothing left',
      'approval',
      'quiet-hours',
      'max-jobs / max-credits',
      'max-open'
    ])
  })

  it('holds a change on its own by the same limits, in the same order, after who opened it', () => {
    expect(names(OWN_GATES.opened)).toEqual(['required-permission'])
    const batchLimits = names(GATES.batch).filter(n => names(OWN_GATES.limits).includes(n))
    expect(names(OWN_GATES.limits)).toEqual(batchLimits)
  })

  it('is written once: docs/architecture.md shows the lists the code applies', () => {
    const doc = readFileSync(ARCHITECTURE, 'utf8')
    expect(renderGateOrder(doc)).toBe(doc)
    for (const { stages } of TRIGGERS)
      for (const gate of stages.flatMap(s => s.gates))
        expect(doc).toContain(`**${gate.name}**: ${gate.says}.`)
  })

  it('numbers each trigger’s gates on from its first, across its stages', () => {
    const one = (name: string): Gate<never> => ({ name, says: name, check: () => PASS_VERDICT })
    const text = gateOrder([
      {
        trigger: 'T',
        where: 'w',
        stages: [{ when: 'First', gates: [one('a')] }, { gates: [one('b')] }]
      },
      { trigger: 'U', where: 'v', stages: [{ gates: [one('c')] }] }
    ])
    expect(text).toBe(
      '**T** (w):\n\nFirst:\n\n1. **a**: a.\n\n2. **b**: b.\n\n**U** (v):\n\n1. **c**: c.'
    )
  })

  it('stops at the first gate that does not pass, and asks none after it', async () => {
    const asked: string[] = []
    const gate = (name: string, verdict: Verdict): Gate<unknown> => ({
      name,
      says: name,
      check: () => {
        asked.push(name)
        return verdict
      }
    })
    const hold: Verdict = { kind: 'hold', why: 'held', written: {} }
    const gates = [
      gate('a', { kind: 'pass' }),
      gate('b', hold),
      gate('c', { kind: 'skip', why: 'c' })
    ]
    expect(await applyGates(gates, {})).toBe(hold)
    expect(asked).toEqual(['a', 'b'])
    expect(await applyGates([gate('d', { kind: 'pass' })], {})).toBeUndefined()
  })
})

const PASS_VERDICT: Verdict = { kind: 'pass' }

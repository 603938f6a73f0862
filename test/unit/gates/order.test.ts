import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { Gate, HeadInput, Verdict } from '../../../src/changes/gates/gate.js'
import { GATES, applyGates } from '../../../src/changes/gates/order.js'
import { headInput } from '../../support/gate-inputs.js'

const names = [...GATES.head, ...GATES.batch, ...GATES.decided].map(g => g.name)

describe('the order of the gates', () => {
  it('is the documented one: the head, the batch, then the fold decision', () => {
    expect(names).toEqual([
      'documented already',
      'covered by an earlier run',
      'first run',
      'nothing left',
      'approval',
      'max-jobs',
      'max-open'
    ])
  })

  it('is the order docs/architecture.md lists them in', () => {
    const doc = readFileSync('docs/architecture.md', 'utf8')
    const section = doc.split('\n## ').find(s => s.startsWith('The gates, in order')) ?? ''
    const listed = [...section.matchAll(/^\d+\. \*\*([^*]+)\*\*/gm)].map(m => m[1])
    expect(listed).toEqual(names)
  })

  it('stops at the first gate that does not pass, and asks none after it', async () => {
    const asked: string[] = []
    const gate = (name: string, verdict: Verdict): Gate<HeadInput> => ({
      name,
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
    expect(await applyGates(gates, headInput())).toBe(hold)
    expect(asked).toEqual(['a', 'b'])
    expect(await applyGates([gate('d', { kind: 'pass' })], headInput())).toBeUndefined()
  })
})

import { describe, expect, it } from 'vitest'
import { nothingLeft, nothingLeftOf } from '../../../src/changes/gates/nothing-left.js'
import { batchInput, batchOf, pull } from '../../support/gate-inputs.js'

describe('the nothing-left gate', () => {
  it('passes a batch with a change left', async () => {
    expect(await nothingLeft.check(batchInput())).toEqual({ kind: 'pass' })
  })

  it('skips an empty range, and records it so the ledger moves past it', async () => {
    const batch = batchOf([], { url: 'https://github.com/acme/app/compare/a...b' })
    const why =
      'There is nothing to document: https://github.com/acme/app/compare/a...b holds no commit or changed file.'
    expect(await nothingLeft.check(batchInput({ batch }))).toEqual({
      kind: 'skip',
      why,
      record: { note: why }
    })
    expect(nothingLeftOf(batchOf([], { url: '' }))).toMatchObject({
      why: 'There is nothing to document: the range holds no commit or changed file.'
    })
  })

  it('says what the change rules left out when they left nothing', () => {
    const skipped = [
      { ref: '#7', title: 'Bump', sha: 'd'.repeat(40), why: '#7 is by a bot.' },
      { ref: '#8', title: 'Tests', sha: 'e'.repeat(40), why: '#8 changes no path of paths.' }
    ]
    expect(nothingLeftOf(batchOf([], { skipped }))).toMatchObject({
      kind: 'skip',
      why: 'There is nothing to document: #7 is by a bot. #8 changes no path of paths.'
    })
    expect(nothingLeftOf(batchOf([pull(9)], { skipped }))).toEqual({ kind: 'pass' })
  })
})

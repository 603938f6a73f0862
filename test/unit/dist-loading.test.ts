import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ENTRIES, loadedFiles, undiciCopies } from '../../scripts/entries.mjs'
import { ROOT } from '../support/run-action.js'

describe.each(ENTRIES)('dist/$out', ({ out }) => {
  it('may load at most one copy of undici, lazily', () => {
    expect(undiciCopies(path.join(ROOT, 'dist', out))).toBeLessThanOrEqual(1)
  })
})

describe('loadedFiles', () => {
  it('follows static imports only, unless asked for the lazy ones', () => {
    const entry = path.join(ROOT, 'dist', 'index.js')
    const eager = loadedFiles(entry)
    const all = loadedFiles(entry, { dynamic: true })
    expect(eager[0]).toBe(entry)
    expect(eager.length).toBeGreaterThan(1)
    expect(all.length).toBeGreaterThan(eager.length)
    expect(all).toEqual(expect.arrayContaining(eager))
  })
})

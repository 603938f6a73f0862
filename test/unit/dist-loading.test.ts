import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ENTRIES, UNDICI_MARKER, loadedFiles, undiciCopies } from '../../scripts/entries.mjs'
import { ROOT } from '../support/run-action.js'

// What each committed bundle loads before it does anything: start-up time is spent here
// (bench/results.md). undici, @actions/github and Octokit must only ever be loaded lazily.
const startup = (entry: string) =>
  loadedFiles(path.join(ROOT, 'dist', entry)).map(f => readFileSync(f, 'utf8'))

describe.each(ENTRIES)('dist/$out', ({ out }) => {
  it('loads no undici, Octokit or OIDC client at start', () => {
    for (const code of startup(out)) {
      expect(code).not.toContain(UNDICI_MARKER)
      expect(code).not.toContain('octokit-core.js')
      expect(code).not.toContain('ACTIONS_ID_TOKEN_REQUEST_URL')
    }
  })

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

import { describe, expect, it } from 'vitest'
import { readPathFilter } from '../../src/agent/path-filter.js'
import { InputError } from '../../src/runner/errors.js'

const filter = (paths: string, ignore = '') =>
  readPathFilter('paths', paths, 'paths-ignore', ignore)

describe('paths and paths-ignore', () => {
  it('counts every file when neither is set', () => {
    const all = filter('')
    expect(all.all).toBe(true)
    expect(all.counts('anything/at/all.ts')).toBe(true)
  })

  it('reads globs as GitHub does: * within a folder, ** across, dotfiles too', () => {
    const f = filter('src/*.ts\n  docs/**  \n# a comment\n\n.github/**')
    expect(f.counts('src/client.ts')).toBe(true)
    expect(f.counts('src/deep/client.ts')).toBe(false)
    expect(f.counts('docs/a/b/c.md')).toBe(true)
    expect(f.counts('.github/workflows/ci.yml')).toBe(true)
    expect(f.counts('README.md')).toBe(false)
  })

  it('lets a later ! pattern take back what an earlier one matched, and the last match decide', () => {
    const f = filter('src/**\n!src/**/*.test.ts\nsrc/keep/*.test.ts')
    expect(f.counts('src/a.ts')).toBe(true)
    expect(f.counts('src/a.test.ts')).toBe(false)
    expect(f.counts('src/keep/b.test.ts')).toBe(true)
  })

  it('drops what paths-ignore matches, also with paths set', () => {
    const f = filter('src/**', 'src/generated/**, **/*.snap')
    expect(f.counts('src/x.ts')).toBe(true)
    expect(f.counts('src/generated/api.ts')).toBe(false)
    expect(f.counts('src/__snapshots__/x.snap')).toBe(false)
    expect(filter('', 'tests/**').counts('tests/a.ts')).toBe(false)
    expect(filter('', 'tests/**').counts('src/a.ts')).toBe(true)
  })

  it('refuses what is no glob, naming the input', () => {
    expect(() => filter('src/[abc')).toThrow(InputError)
    expect(() => filter('', 'x/[')).toThrow(/paths-ignore/)
    expect(() => filter(Array.from({ length: 201 }, (_, i) => `p${i}`).join('\n'))).toThrow(
      /at most 200/
    )
  })
})

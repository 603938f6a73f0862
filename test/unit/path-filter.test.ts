import { describe, expect, it } from 'vitest'
import { isGlob, pathFilter, readPathFilter } from '../../src/policy/path-filter.js'
import { v1CodeRepositories, v1List } from '../../src/policy/v1-lists.js'
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

  it('keeps a comma inside braces in one glob: src/{api,cli}/** (v1 refused it as src/{api)', () => {
    const f = filter('src/{api,cli}/**, docs/**')
    expect(f.counts('src/api/a.ts')).toBe(true)
    expect(f.counts('src/cli/b.ts')).toBe(true)
    expect(f.counts('src/web/c.ts')).toBe(false)
    expect(f.counts('docs/x.md')).toBe(true)
  })
})

describe('the filter of the policy file’s lists', () => {
  it('reads real lists, braces and all, as the v1 inputs were read', () => {
    const f = pathFilter(['src/{api,cli}/**', '!**/*.test.ts'], ['src/api/generated/**'])
    expect(f.all).toBe(false)
    expect(f.counts('src/cli/main.ts')).toBe(true)
    expect(f.counts('src/cli/main.test.ts')).toBe(false)
    expect(f.counts('src/api/generated/x.ts')).toBe(false)
    expect(pathFilter([], []).all).toBe(true)
  })

  it('tells a glob from what picomatch cannot read', () => {
    expect(['src/**', '!src/**/*.test.ts', 'src/{a,b}/*.md', '[abc].ts'].every(isGlob)).toBe(true)
    expect(['src/[abc', '!x/['].some(isGlob)).toBe(false)
  })
})

describe('v1 lists, as a workflow still writes them', () => {
  it('splits on lines and commas, not on commas inside braces or escaped', () => {
    expect(v1List(' a/**, src/{api,cli}/**\n# comment\n\n {x,{y,z}}/*.md ,\\,b\r\nlast')).toEqual([
      'a/**',
      'src/{api,cli}/**',
      '{x,{y,z}}/*.md',
      '\\,b',
      'last'
    ])
    // An unclosed brace ends with its line: the next line is its own item.
    expect(v1List('src/{a,b\nc,d')).toEqual(['src/{a,b', 'c', 'd'])
  })

  it('reads code-repositories lines: a name, and its globs after a colon', () => {
    expect(
      v1CodeRepositories('acme/api: src/{a,b}/**, !**/*.test.ts\n# x\nacme/cli\nacme/web:')
    ).toEqual([
      {
        line: 'acme/api: src/{a,b}/**, !**/*.test.ts',
        name: 'acme/api',
        paths: ['src/{a,b}/**', '!**/*.test.ts']
      },
      { line: 'acme/cli', name: 'acme/cli' },
      { line: 'acme/web:', name: 'acme/web', paths: [] }
    ])
  })
})

import { describe, expect, it } from 'vitest'
import type { BatchCommit, BatchPull, ChangeBatch, RepositoryPart } from '../../src/agent/batch.js'
import { changePrompt } from '../../src/changes/change-prompt.js'
import { fitProjectBatch } from '../../src/changes/project-fit.js'

const sha = (repo: string, n: number): string =>
  `${repo.length.toString(16)}${n.toString(16)}`.padEnd(40, repo.endsWith('cli') ? 'c' : 'a')
const LONG = 'Long description. '.repeat(600)

function pull(repository: string, number: number): BatchPull {
  return {
    number,
    title: `${repository} change ${number}`,
    body: LONG,
    url: `https://github.com/${repository}/pull/${number}`,
    author: 'dev',
    authorIsBot: false,
    base: 'main',
    labels: [],
    merged: true,
    mergeCommit: sha(repository, number),
    state: 'closed',
    changedFiles: 1,
    additions: 1,
    deletions: 0,
    files: [{ path: `src/f${number}.ts`, additions: 1, deletions: 0, status: 'added' }],
    filesComplete: true,
    repository
  }
}

const commit = (repository: string, n: number): BatchCommit => ({
  sha: sha(repository, 100 + n),
  message: `Direct commit ${n}`,
  author: 'dev',
  authorIsBot: false,
  files: [],
  filesComplete: true,
  repository
})

const part = (name: string, base?: string): RepositoryPart => ({
  name,
  branch: 'main',
  head: sha(name, 999),
  ...(base ? { base } : {}),
  url: ''
})

function batch(pulls: BatchPull[], commits: BatchCommit[], parts: RepositoryPart[]): ChangeBatch {
  return {
    repository: 'acme/docs',
    branch: '',
    url: '',
    head: '',
    pulls,
    commits,
    skipped: [],
    leftOut: [],
    parts
  }
}

const range = (repo: string, n: number): BatchPull[] =>
  Array.from({ length: n }, (_, i) => pull(repo, i + 1))

describe('a docs project batch cut to one prompt', () => {
  it('leaves a batch that fits as it is', () => {
    const small = batch(range('acme/api', 2), [], [part('acme/api', sha('acme/api', 0))])
    expect(fitProjectBatch(small)).toBe(small)
  })

  it('keeps a cut repository’s oldest described pull requests, its head on the newest one’s merge commit, and counts the rest', () => {
    const full = batch(range('acme/api', 40), [], [part('acme/api', sha('acme/api', 0))])
    const fitted = fitProjectBatch(full)
    const kept = fitted.pulls.length
    expect(kept).toBeGreaterThan(0)
    expect(kept).toBeLessThan(40)
    expect(fitted.pulls.map(p => p.number)).toEqual(range('acme/api', kept).map(p => p.number))
    expect(fitted.parts?.[0]?.head).toBe(sha('acme/api', kept))
    expect(fitted.backlog).toBe(40 - kept)
    expect(fitted.leftOut.join(' ')).toContain(`acme/api: ${40 - kept} newer changes`)
    // What is kept, the prompt describes whole.
    const prompt = changePrompt(fitted, { followUp: false })
    for (const p of fitted.pulls) expect(prompt).toContain(p.title)
  })

  it('a later repository with commits pushed without a pull request is left whole for the next run, its watermark staying', () => {
    const pulls = [...range('acme/api', 20), ...range('acme/cli', 20)]
    const full = batch(
      pulls,
      [commit('acme/cli', 1)],
      [part('acme/api', sha('acme/api', 0)), part('acme/cli', sha('acme/cli', 0))]
    )
    const fitted = fitProjectBatch(full)
    const cli = fitted.parts?.find(p => p.name === 'acme/cli')
    expect(fitted.pulls.some(p => p.repository === 'acme/cli')).toBe(false)
    expect(fitted.pulls.some(p => p.repository === 'acme/api')).toBe(true)
    expect(fitted.commits).toEqual([])
    expect(cli?.head).toBe(sha('acme/cli', 0))
  })

  it('a first look with nothing described records no watermark', () => {
    const pulls = [...range('acme/api', 30), ...range('acme/web', 5)]
    const fitted = fitProjectBatch(
      batch(pulls, [], [part('acme/api', sha('acme/api', 0)), part('acme/web')])
    )
    expect(fitted.pulls.some(p => p.repository === 'acme/web')).toBe(false)
    expect(fitted.parts?.map(p => p.name)).toEqual(['acme/api'])
  })
})

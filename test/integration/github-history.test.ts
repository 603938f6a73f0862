import { getOctokit } from '@actions/github'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type GraphQL, readHistory, readPulls } from '../../src/github/history.js'
import { FakeGitHub } from '../simulator/fake-github.js'

const APP = 'acme/app'
let gh: FakeGitHub
let graphql: GraphQL
beforeAll(async () => {
  gh = await FakeGitHub.start({ prefix: '/api/v3' })
  const octokit = getOctokit('ghs_token', { baseUrl: gh.url })
  graphql = (query, variables) => octokit.graphql(query, variables)
})
afterAll(() => gh.close())
beforeEach(() => gh.reset())

const where = { owner: 'acme', repo: 'app', base: 'main', max: 100 }

describe('reading a branch through GitHub GraphQL (against the published schema)', () => {
  it('lists the commits back to the last documented one, each with its merged pull request', async () => {
    const documented = gh.commitTo(APP, { message: 'Before' })
    const first = gh.mergePull(APP, gh.addPull(APP, { number: 12, title: 'Add retries' }))
    const direct = gh.commitTo(APP, {
      message: 'Fix a typo\n\nDirectly on main.',
      author: { login: 'maintainer' }
    })
    const second = gh.mergePull(APP, gh.addPull(APP, { number: 13, title: 'Rename --follow' }))
    const history = await readHistory(graphql, {
      ...where,
      head: second.sha,
      since: documented.sha
    })
    expect(history.reachedSince).toBe(true)
    expect(history.commits).toEqual([
      expect.objectContaining({ sha: second.sha, pull: 13, message: 'Rename --follow (#13)' }),
      expect.objectContaining({
        sha: direct.sha,
        pull: undefined,
        author: 'maintainer',
        authorIsBot: false
      }),
      expect.objectContaining({ sha: first.sha, pull: 12 })
    ])
  })

  it('says when the last documented commit is not in the newest commits read', async () => {
    const documented = gh.commitTo(APP, { message: 'Old' })
    for (let i = 0; i < 5; i++) gh.commitTo(APP, { message: `c${i}` })
    const history = await readHistory(graphql, {
      ...where,
      head: gh.headOf(APP),
      since: documented.sha,
      max: 3
    })
    expect(history.reachedSince).toBe(false)
    expect(history.commits).toHaveLength(3)
  })

  it('knows a bot by its name when GitHub links its commits to no account', async () => {
    const bot = gh.commitTo(APP, {
      message: 'Bump',
      author: { name: 'dependabot[bot]', bot: true }
    })
    const history = await readHistory(graphql, { ...where, head: bot.sha })
    expect(history.commits[0]).toMatchObject({ author: 'dependabot[bot]', authorIsBot: true })
  })

  it('fails clearly for a commit GitHub does not know', async () => {
    await expect(readHistory(graphql, { ...where, head: 'f'.repeat(40) })).rejects.toThrow(
      /GitHub knows no commit ffffffffffff/
    )
  })

  it('reads pull requests with their files and no patches, in one request', async () => {
    gh.addPull(APP, {
      number: 12,
      title: 'Add retries',
      body: 'The client retries.',
      labels: ['feature'],
      user: { login: 'renovate[bot]', type: 'Bot' },
      files: [
        { filename: 'src/retry.ts', status: 'added', additions: 80, patch: 'x'.repeat(1000) },
        { filename: 'src/old.ts', status: 'removed', deletions: 3 }
      ]
    })
    gh.addPull(APP, { number: 13, state: 'open', merged: false })
    const before = gh.requests.length
    const pulls = await readPulls(graphql, { owner: 'acme', repo: 'app' }, [12, 13, 12, 999])
    expect(gh.requests.length - before).toBe(1)
    expect(pulls.get(12)).toEqual({
      number: 12,
      title: 'Add retries',
      body: 'The client retries.',
      url: 'https://github.com/acme/app/pull/12',
      author: 'renovate[bot]',
      authorIsBot: true,
      base: 'main',
      merged: true,
      state: 'closed',
      labels: ['feature'],
      mergeCommit: undefined,
      changedFiles: 2,
      additions: 81,
      deletions: 3,
      files: [
        { path: 'src/retry.ts', additions: 80, deletions: 0, status: 'added' },
        { path: 'src/old.ts', additions: 1, deletions: 3, status: 'removed' }
      ]
    })
    expect(pulls.get(13)).toMatchObject({ merged: false, state: 'open' })
    expect(pulls.has(999)).toBe(false)
    expect(JSON.stringify(gh.requests.at(-1)?.responseBody)).not.toContain('xxxx')
  })

  it('refuses, as GitHub would, a query its schema does not have', async () => {
    await expect(graphql('query { viewer { nonsense } }', {})).rejects.toThrow(
      /Cannot query field "nonsense"/
    )
  })
})

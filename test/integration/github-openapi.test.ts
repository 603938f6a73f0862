import { VirtualClock } from '../support/virtual-clock.js'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { FakeGitHub } from '../simulator/fake-github.js'
import { type GitHubValidator, gitHubValidator } from '../support/github-openapi.js'
import { loadAfresh } from '../support/afresh.js'

// The fake GitHub's routes and the calls the action makes through Octokit, checked against GitHub's
// own OpenAPI description: the paths, parameters and bodies, and the fields the fake answers with.
let gh: FakeGitHub
let validator: GitHubValidator
beforeAll(async () => {
  gh = await FakeGitHub.start()
  validator = await gitHubValidator()
}, 60_000)
afterAll(() => gh.close())

const AFTER = 'b'.repeat(40)

async function connect() {
  vi.stubEnv('GITHUB_API_URL', gh.url)
  const { connectGitHub } = await loadAfresh(() => import('../../src/github/session.js'))
  // Its writes are paced a second apart on this clock, not in real seconds.
  return connectGitHub('ghs_t', { owner: 'acme', repo: 'app', apiUrl: gh.url }, undefined, {
    clock: new VirtualClock()
  })
}

describe("the fake GitHub and the action's calls follow GitHub's OpenAPI description", () => {
  it('every operation, with answers and failures', async () => {
    gh.addPull('acme/app', {
      number: 4,
      labels: ['api'],
      files: [
        { filename: 'src/a.ts', additions: 3, deletions: 1, patch: '@@ -1 +1 @@\n-a\n+b' },
        { filename: 'src/c.ts', status: 'renamed', previous_filename: 'src/b.ts' }
      ]
    })
    gh.commits.set(AFTER, {
      sha: AFTER,
      message: 'Add retries (#4)',
      pulls: [4],
      files: [{ filename: 'src/a.ts', patch: '+a' }]
    })
    gh.permissions.set('alice', { permission: 'write', role_name: 'write' })
    const github = await connect()
    const id = await github.createComment(4, 'hello')
    await github.updateComment(id, 'hello again')
    await github.listComments(4)
    await github.permission('alice')
    for await (const page of github.pullFilePages(4, 30)) expect(page).toHaveLength(2)
    expect(await github.pull(4)).toMatchObject({ number: 4, merged: true, labels: ['api'] })
    expect(await github.commitFiles(AFTER, 1, 30)).toEqual([
      expect.objectContaining({ path: 'src/a.ts', patch: '+a' })
    ])
    expect(await github.commitPaths(AFTER, 1, 100)).toEqual([
      expect.objectContaining({ path: 'src/a.ts', patch: undefined })
    ])
    const issue = await github.createIssue('Docs agent dashboard', 'state', [
      'docs-agent-dashboard'
    ])
    // Each dated by GitHub's clock as it answered.
    const answered = { answeredAt: expect.any(Number) }
    expect(await github.issuesWithLabel('docs-agent-dashboard')).toEqual([
      { ...issue, ...answered }
    ])
    expect(await github.getIssue(issue.number)).toEqual({ ...issue, ...answered })
    expect(
      await github.updateIssue(issue.number, {
        body: 'new',
        state: 'closed',
        labels: ['docs-agent-dashboard']
      })
    ).toMatchObject({ body: 'new', state: 'closed', labels: ['docs-agent-dashboard'] })
    const first = gh.commitTo('acme/app', { message: 'One' })
    const second = gh.commitTo('acme/app', { message: 'Two' })
    expect(await github.compareStatus(first.sha, second.sha)).toBe('ahead')
    expect(await github.compareStatus(second.sha, first.sha)).toBe('behind')
    expect(await github.compareStatus('f'.repeat(40), second.sha)).toBe('missing')
    // main reset to before both: on no branch, each keeps its history, as on GitHub.
    gh.branches.set('acme/app:main', [])
    expect(await github.compareStatus(second.sha, first.sha)).toBe('behind')
    expect(await github.compareStatus(first.sha, second.sha)).toBe('ahead')
    gh.addPull('acme/app', { number: 5, state: 'open', merged: false, createdAt: Date.now() })
    expect(await github.closePull(5)).toMatchObject({ number: 5, state: 'closed', merged: false })
    await expect(github.pull(99)).rejects.toMatchObject({ status: 404 })
    gh.failures.set('pull-files', 403)
    const read = async () => {
      for await (const _page of github.pullFilePages(4, 30)) return
    }
    await expect(read()).rejects.toMatchObject({ status: 403 })

    const operations = new Set(gh.requests.map(r => `${r.method} ${r.path}`))
    expect(operations.size).toBeGreaterThanOrEqual(10)
    const problems = gh.requests.flatMap(r =>
      validator.problems(r).map(p => `${r.method} ${r.path}: ${p}`)
    )
    expect(problems).toEqual([])
    vi.unstubAllEnvs()
  })

  it('catches a call or an answer that breaks the description (the check can fail)', () => {
    const call = {
      method: 'GET',
      path: '/repos/acme/app/pulls/4/files',
      query: { per_page: '100', page: '1' },
      status: 200,
      responseBody: [{ filename: 'a.ts', status: 'modified', additions: 3 }]
    }
    expect(validator.problems(call)).toEqual([])
    for (const bad of [
      { responseBody: [{ filename: 'a.ts', status: 'edited' }] },
      { responseBody: [{ filename: 'a.ts', additions: '3' }] },
      { query: { per_page: 'many' } },
      { method: 'POST', body: { body: 'x' } }
    ])
      expect(validator.problems({ ...call, ...bad }), JSON.stringify(bad)).not.toEqual([])
    expect(
      validator.problems({
        method: 'GET',
        path: '/repos/acme/app/issues/comments',
        query: { sort: 'created', direction: 'newest' }
      })
    ).not.toEqual([])
    expect(validator.problems({ ...call, path: '/repos/acme/app/pulls/4/diffs' })).toEqual([
      'no documented operation for GET /repos/acme/app/pulls/4/diffs'
    ])
  })
})

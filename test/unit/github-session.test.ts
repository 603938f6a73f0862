import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { GitHubSession } from '../../src/github/session.js'
import { docsPulls } from '../../src/agent/docs-repository.js'
import { FakeGitHub } from '../simulator/fake-github.js'

let gh: FakeGitHub
let other: FakeGitHub
let session: GitHubSession
beforeAll(async () => {
  ;[gh, other] = await Promise.all([FakeGitHub.start(), FakeGitHub.start({ prefix: '/api/v3' })])
})
afterAll(async () => {
  await Promise.all([gh.close(), other.close()])
})
afterEach(async () => {
  await session?.close()
  gh.reset()
  other.reset()
})

describe("a run's GitHub session: one client per token and host", () => {
  it('reads 50 repositories with one token over one client and its connections', async () => {
    session = new GitHubSession()
    const repos = Array.from({ length: 50 }, (_, i) => `acme/r${i}`)
    for (const repo of repos) gh.commitTo(repo, { message: 'Initial commit' })
    for (const repo of repos) {
      const [owner = '', name = ''] = repo.split('/')
      const github = session.repository('ghs_code', { owner, repo: name, apiUrl: gh.url })
      expect(await github.compareStatus(gh.headOf(repo), gh.headOf(repo))).toBe('identical')
    }
    expect(session.opened).toBe(1)
    // The client's pool: undici opens a second connection when the next request leaves before the
    // first answer's end is read (sent at once, as requests are), never one per repository.
    expect(gh.connections).toBeLessThanOrEqual(2)
  })

  it('opens a client for each other token, and each other host, and closes them all', async () => {
    session = new GitHubSession()
    const where = { owner: 'acme', repo: 'app', apiUrl: gh.url }
    session.repository('ghs_one', where)
    session.repository('ghs_one', { ...where, apiUrl: `${gh.url}/` })
    session.repository('ghs_two', where)
    session.repository('ghs_one', { ...where, apiUrl: other.url })
    expect(session.opened).toBe(3)
    await session.close()
    // Closed: the next call opens again, as a new run would.
    session.repository('ghs_one', where)
    expect(session.opened).toBe(4)
  })

  it('gives every flow of the run the same door to the docs repository: who docs-token is is read once', async () => {
    session = new GitHubSession()
    gh.tokenUsers.set('ghs_docs', { login: 'docs-writer[bot]', type: 'Bot' })
    const tokens = { docsToken: 'ghs_docs', githubToken: 'ghs_run' }
    const door = docsPulls(tokens, gh.url, { session })
    expect(docsPulls(tokens, gh.url, { session }, { orRunToken: true })).toBe(door)
    expect(await door.identity({ owner: 'acme', repo: 'docs' })).toBe('docs-writer[bot]')
    expect(
      await docsPulls(tokens, gh.url, { session }).identity({ owner: 'acme', repo: 'docs' })
    ).toBe('docs-writer[bot]')
    expect(gh.requests.filter(r => r.path === '/graphql')).toHaveLength(1)
    // Without docs-token, a flow that may read with the run's token has a door of its own.
    const runs = docsPulls({ githubToken: 'ghs_run' }, gh.url, { session }, { orRunToken: true })
    expect(runs.tokenInput).toBe('github-token')
    expect(runs).not.toBe(docsPulls({ githubToken: 'ghs_run' }, gh.url, { session }))
  })

  it('names the input of a token that cannot be sent, at its first use', () => {
    session = new GitHubSession()
    expect(() =>
      session.repository(
        '${{ secrets.CODE }}',
        { owner: 'a', repo: 'b', apiUrl: gh.url },
        'code-token'
      )
    ).toThrow(/code-token/)
    expect(session.opened).toBe(0)
  })
})

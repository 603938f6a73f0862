import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { gitHubFailure, whatToDo } from '../../src/github/failure.js'
import { type GitHubConnection, connectGitHub } from '../../src/github/session.js'
import { FakeGitHub } from '../simulator/fake-github.js'
import { closedPort } from '../support/clients.js'
import { VirtualClock } from '../support/virtual-clock.js'

// GitHub's failures as it documents them, served by the fake GitHub, met by the action's own client,
// and told apart once (src/github/failure.ts): what happened, and what would help.
const clock = new VirtualClock()
let gh: FakeGitHub
let github: GitHubConnection
beforeAll(async () => {
  gh = await FakeGitHub.start({ now: clock.wallNow })
})
afterAll(() => gh.close())
afterEach(async () => {
  await github?.close()
  gh.reset()
})

/** The action's client on acme/app, with retries that wait on the virtual clock. */
const connect = (deadline = clock.now() + 600_000): GitHubConnection =>
  (github = connectGitHub('ghs_t', { owner: 'acme', repo: 'app', apiUrl: gh.url }, undefined, {
    clock,
    deadline
  }))
const failed = (call: Promise<unknown>): Promise<unknown> =>
  call.then(
    () => {
      throw new Error('expected the call to fail')
    },
    (error: unknown) => error
  )
const advice = { refused: 'GRANT.', disabled: 'TURN ON.' }
const QUERY = 'query { viewer { login } }'

describe('GitHub failures as GitHub documents them, told apart once', () => {
  it('Issues turned off: 410 on creating or editing an issue, a disabled feature, never a permission', async () => {
    gh.issuesOff.add('acme/app')
    const error = await failed(connect().createIssue('Docs agent dashboard', 'x', []))
    expect(gh.requests.at(-1)).toMatchObject({ status: 410 })
    expect(gitHubFailure(error)).toEqual({ kind: 'disabled', why: 'HTTP 410' })
    expect(whatToDo(error, advice)).toBe('TURN ON.')
    gh.issues.set(3, {
      number: 3,
      title: 't',
      body: 'b',
      state: 'open',
      labels: [],
      user: { login: 'a', type: 'User' },
      updatedAt: 1
    })
    expect(gitHubFailure(await failed(github.updateIssue(3, { body: 'x' }))).kind).toBe('disabled')
  })

  it('an outage is no permission: a 5xx, a GraphQL 502, an answer holding only errors, no answer at all', async () => {
    gh.failures.set('update-comment', 503)
    const rest = await failed(connect().updateComment(1, 'x'))
    expect(gitHubFailure(rest)).toEqual({ kind: 'outage', why: 'HTTP 503' })
    gh.failures.set('graphql', 502)
    expect(gitHubFailure(await failed(github.graphql(QUERY, {})))).toEqual({
      kind: 'outage',
      why: 'HTTP 502'
    })
    gh.failures.clear()
    gh.graphqlErrors.set('graphql', {
      errors: [
        {
          message:
            'Something went wrong while executing your query. This may be the result of a timeout.'
        }
      ],
      times: 4
    })
    // GitHub's "Something went wrong" is retried (@octokit/plugin-retry), then told as it was.
    const errorsOnly = await failed(github.graphql(QUERY, {}))
    expect(gh.requests.filter(r => r.path === '/graphql' && r.status === 200)).toHaveLength(4)
    expect(gitHubFailure(errorsOnly)).toMatchObject({
      kind: 'outage',
      why: "GitHub's GraphQL API answered with errors only: Something went wrong while executing your query. This may be the result of a timeout."
    })
    expect(whatToDo(errorsOnly, advice)).toMatch(
      /^GitHub did not answer or failed, which no permission changes: run the workflow again later/
    )
    const nobody = connectGitHub(
      'ghs_t',
      {
        owner: 'acme',
        repo: 'app',
        apiUrl: `http://127.0.0.1:${await closedPort()}`
      },
      undefined,
      { clock }
    )
    const unanswered = await failed(nobody.createComment(1, 'x'))
    await nobody.close()
    expect(gitHubFailure(unanswered)).toEqual({
      kind: 'outage',
      why: 'no answer from GitHub (ECONNREFUSED)'
    })
  })

  it('rate limits, with when to retry: a secondary limit past the deadline, RATE_LIMITED and "submitted too quickly"', async () => {
    gh.failures.set('permission', { status: 403, times: 1, retryAfter: 3600 })
    const secondary = await failed(connect(clock.now() + 60_000).permission('alice'))
    expect(gitHubFailure(secondary).kind).toBe('rate-limit')
    expect(gitHubFailure(secondary).why).toMatch(
      /^GitHub's secondary rate limit stopped GET .*asking to wait 1h/
    )
    gh.failures.set('create-issue', { status: 422, times: 1, tooQuickly: true })
    const tooQuickly = await failed(github.createIssue('t', 'b', []))
    expect(gitHubFailure(tooQuickly)).toEqual({
      kind: 'rate-limit',
      why: 'HTTP 422: submitted too quickly (a secondary rate limit)'
    })
    expect(whatToDo(tooQuickly, advice)).toMatch(/^Run the workflow again later/)
    gh.graphqlErrors.set('graphql', {
      errors: [{ type: 'UNPROCESSABLE', message: 'was submitted too quickly' }],
      times: 1
    })
    expect(gitHubFailure(await failed(github.graphql(QUERY, {})))).toEqual({
      kind: 'rate-limit',
      why: "GitHub's GraphQL API: was submitted too quickly"
    })
    // RATE_LIMITED whose reset is past the step's time limit: not waited for, and said.
    gh.graphqlErrors.set('graphql', {
      errors: [{ type: 'RATE_LIMITED', message: 'API rate limit exceeded for user ID 1.' }],
      times: 5
    })
    const limited = await failed(connect(clock.now() + 10_000).graphql(QUERY, {}))
    expect(gitHubFailure(limited)).toMatchObject({ kind: 'rate-limit' })
    expect(gitHubFailure(limited).why).toMatch(
      /primary rate limit stopped POST \/graphql, asking to wait 1m/
    )
  })

  it("a primary limit's answer says how long to wait by GitHub's clock", async () => {
    gh.failures.set('permission', { status: 403, times: 1, rateLimitReset: 120 })
    // The retry plugin is not asked (no deadline left to wait): the answer itself is read.
    const answer = await fetch(`${gh.url}/repos/acme/app/collaborators/alice/permission`, {
      headers: { authorization: 'token ghs_t' }
    })
    const error = Object.assign(new Error('HTTP 403'), {
      name: 'HttpError',
      status: 403,
      response: {
        status: 403,
        data: await answer.json(),
        headers: Object.fromEntries(answer.headers)
      }
    })
    const failure = gitHubFailure(error)
    expect(failure).toMatchObject({
      kind: 'rate-limit',
      why: "HTTP 403: GitHub's primary rate limit"
    })
    expect(failure.retryAfterMs).toBeGreaterThanOrEqual(121_000)
    expect(failure.retryAfterMs).toBeLessThanOrEqual(122_000)
    expect(whatToDo(error, advice)).toMatch(/^GitHub asks to wait 2m 1s|^GitHub asks to wait 2m 2s/)
  })

  it('a refusal asks for the permission, a file too large or a rejected request for none', async () => {
    gh.failures.set('permission', 403)
    const refused = await failed(connect().permission('alice'))
    expect(gitHubFailure(refused)).toEqual({ kind: 'refused', why: 'HTTP 403' })
    expect(whatToDo(refused, advice)).toBe('GRANT.')
    gh.failures.set('permission', 422)
    const rejected = await failed(github.permission('alice'))
    expect(gitHubFailure(rejected)).toEqual({ kind: 'rejected', why: 'HTTP 422' })
    expect(whatToDo(rejected, advice)).toBe('')
  })
})

describe("the fake GitHub's search, as GitHub's: it can fail, and it lags behind a creation", () => {
  const SEARCH = `query($search: String!) { search(query: $search, type: ISSUE, first: 5) { nodes { ... on Issue { number } } } }`
  const search = () =>
    github.graphql(SEARCH, { search: 'repo:acme/app is:issue in:title "Docs"' }) as Promise<{
      search: { nodes: { number: number }[] }
    }>

  it('finds an issue only once indexed, and fails apart from the other queries', async () => {
    gh.searchLagMs = 30_000
    const issue = await connect().createIssue('Docs agent dashboard', 'x', [])
    expect((await search()).search.nodes).toEqual([])
    await clock.sleep(30_000)
    expect((await search()).search.nodes).toEqual([{ number: issue.number }])
    gh.failures.set('search', 502)
    expect(gitHubFailure(await failed(search())).kind).toBe('outage')
    expect(await github.graphql(QUERY, {})).toEqual({ viewer: { login: 'github-actions[bot]' } })
  })
})

import { RequestError } from '@octokit/request-error'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { FakeGitHub } from '../simulator/fake-github.js'
import { type GitHubApi, lastPage } from '../../src/github/api.js'
import { closedPort } from '../support/clients.js'
import { LoopbackProxy, SilentProxy } from '../support/proxy.js'
import { TcpProbe } from '../support/tcp-probe.js'
import { HeldClock, VirtualClock } from '../support/virtual-clock.js'
import { loadAfresh } from '../support/afresh.js'

// Both ways to GitHub through the toolkit's getOctokit: direct, and behind a proxy chosen by the
// toolkit's rules over the action's own connections (transport.ts). A runner's process starts with
// GITHUB_API_URL and the proxy variables set, so each test loads the module afresh after setting them.
// On a virtual clock unless a test gives its own: writes are paced a second apart on the run's
// clock, which real seconds would spend for nothing.
async function connectGitHub(
  ...[token, where, cancel, options]: Parameters<
    typeof import('../../src/github/session.js').connectGitHub
  >
) {
  vi.stubEnv('GITHUB_API_URL', where.apiUrl)
  const { connectGitHub: connect } = await loadAfresh(() => import('../../src/github/session.js'))
  return connect(token, where, cancel, { clock: new VirtualClock(), ...options })
}
let gh: FakeGitHub
let proxy: LoopbackProxy
beforeAll(async () => {
  gh = await FakeGitHub.start()
  proxy = await LoopbackProxy.start()
})
afterAll(async () => {
  await gh.close()
  await proxy.close()
})
beforeEach(() => {
  gh.reset()
  proxy.targets.length = 0
})
afterEach(() => {
  vi.unstubAllEnvs()
})

const modes = [
  { name: 'direct', apiUrl: () => gh.url, env: {} },
  {
    name: 'through a proxy',
    // Not a loopback name: the toolkit never proxies loopback. The proxy maps it back.
    apiUrl: () => gh.url.replace('127.0.0.1', 'github.proxied.test'),
    env: { HTTP_PROXY: 'proxy', HTTPS_PROXY: 'proxy' }
  }
]

describe.each(modes)('connectGitHub, $name', ({ name, apiUrl, env }) => {
  beforeEach(() => {
    for (const key of Object.keys(env)) vi.stubEnv(key, proxy.url)
    vi.stubEnv('NO_PROXY', '')
  })
  const connect = () => connectGitHub('ghs_t', { owner: 'acme', repo: 'docs', apiUrl: apiUrl() })
  const expectProxied = () => expect(proxy.targets.length > 0).toBe(name === 'through a proxy')

  it("lists an issue's first and newest page of comments, oldest first, with the author type", async () => {
    for (let i = 0; i < 230; i++)
      gh.addComment(
        4,
        `c${i}`,
        i === 7 ? { login: 'bot', type: 'Bot' } : { login: 'u', type: 'User' }
      )
    const github = await connect()
    const comments = await github.listComments(4)
    // Pages 1 and 3 of 3: the middle of a long thread is not read.
    expect(comments.map(c => c.body)).toEqual([
      ...Array.from({ length: 100 }, (_, i) => `c${i}`),
      ...Array.from({ length: 30 }, (_, i) => `c${200 + i}`)
    ])
    expect(comments[7]?.authorType).toBe('Bot')
    expect(gh.requests.filter(r => r.method === 'GET').map(r => r.query.page)).toEqual(['1', '3'])
    expectProxied()
  })

  it('creates and updates a comment, sending the token', async () => {
    const github = await connect()
    const id = await github.createComment(4, 'first')
    await github.updateComment(id, 'second')
    expect(gh.commentsOn(4).map(c => c.body)).toEqual(['second'])
    expect(gh.requests.every(r => r.authorization === 'token ghs_t')).toBe(true)
    expectProxied()
  })

  it('reads a permission and its role name', async () => {
    gh.permissions.set('alice', { permission: 'write', role_name: 'maintain' })
    const github = await connect()
    expect(await github.permission('alice')).toEqual({ permission: 'write', roleName: 'maintain' })
  })

  it("rejects with the status and GitHub's message on an error", async () => {
    gh.failures.set('create-comment', 403)
    const github = await connect()
    await expect(github.createComment(4, 'x')).rejects.toMatchObject({
      status: 403,
      message: expect.stringContaining('Resource not accessible by integration')
    })
    await expect(github.updateComment(424242, 'x')).rejects.toMatchObject({ status: 404 })
  })
})

describe('connectGitHub with a proxy set that does not apply', () => {
  it('sends directly when the host is exempt (loopback or NO_PROXY)', async () => {
    vi.stubEnv('HTTP_PROXY', proxy.url)
    vi.stubEnv('HTTPS_PROXY', proxy.url)
    vi.stubEnv('NO_PROXY', 'example.com')
    const github = await connectGitHub('ghs_t', { owner: 'acme', repo: 'docs', apiUrl: gh.url })
    await github.createComment(4, 'direct')
    expect(proxy.targets).toEqual([])
    expect(gh.requests.every(r => r.userAgent?.startsWith('mintlify-agent-action/'))).toBe(true)
  })
})

describe('connectGitHub behind a proxy that never answers CONNECT', () => {
  it('ends the call at the cancel, and close() ends the tunnel still waiting for the proxy', async () => {
    const silent = await SilentProxy.start()
    try {
      vi.stubEnv('HTTPS_PROXY', silent.url)
      vi.stubEnv('NO_PROXY', '')
      const cancel = new AbortController()
      const repo = { owner: 'acme', repo: 'docs', apiUrl: 'https://api.github.proxied.test' }
      const github = await connectGitHub('ghs_t', repo, cancel.signal)
      const call = github.permission('alice').catch((e: unknown) => e)
      await silent.connected()
      cancel.abort(new Error('Received SIGTERM'))
      expect(await call).toMatchObject({ message: 'Received SIGTERM' })
      expect(silent.open).toBe(1)
      await github.close()
      await silent.idle()
      // Closing twice is closing once.
      await github.close()
    } finally {
      await silent.close()
    }
  })
})

describe('connectGitHub behind a proxy that refuses the tunnel', () => {
  it.each(['on CONNECT', 'on accept'])(
    'fails the call at once when the proxy closes the connection %s: no reconnecting without end',
    async when => {
      const closing = await TcpProbe.start(socket =>
        when === 'on accept' ? socket.destroy() : socket.once('data', () => socket.destroy())
      )
      try {
        vi.stubEnv('HTTPS_PROXY', closing.url)
        vi.stubEnv('NO_PROXY', '')
        const repo = { owner: 'acme', repo: 'docs', apiUrl: 'https://api.github.proxied.test' }
        // Retries wait nothing: what is counted is the connections undici itself opens.
        const clock = new VirtualClock()
        const github = await connectGitHub('ghs_t', repo, undefined, { clock })
        const error = await github.permission('alice').catch((e: unknown) => e)
        const { describeGitHubError } = await import('../../src/github/api.js')
        expect(describeGitHubError(error)).toMatch(
          /^no answer from GitHub \(the proxy 127\.0\.0\.1:\d+ closed the connection instead of opening a tunnel to api\.github\.proxied\.test:443\)$/
        )
        await github.close()
        await closing.settled()
        // The call and its three retries, each one connection (undici's own retry aside).
        expect(closing.accepted).toBeLessThanOrEqual(8)
      } finally {
        await closing.close()
      }
    }
  )

  it('says the proxy asks for credentials (407), naming no credential', async () => {
    const asking = await TcpProbe.proxy(407)
    try {
      vi.stubEnv('HTTPS_PROXY', asking.url.replace('http://', 'http://user:s3cret@'))
      vi.stubEnv('NO_PROXY', '')
      const repo = { owner: 'acme', repo: 'docs', apiUrl: 'https://api.github.proxied.test' }
      const github = await connectGitHub('ghs_t', repo, undefined, { clock: new VirtualClock() })
      const error = await github.permission('alice').catch((e: unknown) => e)
      const { describeGitHubError } = await import('../../src/github/api.js')
      const said = describeGitHubError(error)
      expect(said).toMatch(
        /^no answer from GitHub \(the proxy 127\.0\.0\.1:\d+ asks for credentials \(407\): put them in the proxy variable as http:\/\/user:password@127\.0\.0\.1:\d+\)$/
      )
      expect(said).not.toContain('s3cret')
      await github.close()
    } finally {
      await asking.close()
    }
  })
})

describe('GitHub errors, as Octokit reports them', () => {
  const failure = async (call: Promise<unknown>): Promise<unknown> =>
    call.then(
      () => new Error('expected the call to fail'),
      (error: unknown) => error
    )

  it('says "no answer", not "HTTP 500", when GitHub cannot be reached', async () => {
    const apiUrl = `http://127.0.0.1:${await closedPort()}`
    const github = await connectGitHub('ghs_t', { owner: 'acme', repo: 'docs', apiUrl })
    const { describeGitHubError, refusedAccess } = await import('../../src/github/api.js')
    const error = await failure(github.createComment(4, 'x'))
    // Octokit's own report: a RequestError with status 500 and no response.
    expect(error).toBeInstanceOf(RequestError)
    expect(error).toMatchObject({ status: 500, response: undefined })
    expect(describeGitHubError(error)).toBe('no answer from GitHub (ECONNREFUSED)')
    expect(refusedAccess(error)).toBe(false)
  })

  it('says "HTTP 500" when GitHub answers 500, and refused access only for 401, 403, 404', async () => {
    const github = await connectGitHub('ghs_t', { owner: 'acme', repo: 'docs', apiUrl: gh.url })
    const { describeGitHubError, refusedAccess } = await import('../../src/github/api.js')
    for (const [status, refused] of [
      [500, false],
      [401, true],
      [403, true],
      [404, true],
      [422, false]
    ] as const) {
      gh.failures.set('create-comment', status)
      const error = await failure(github.createComment(4, 'x'))
      expect(describeGitHubError(error)).toBe(`HTTP ${status}`)
      expect(refusedAccess(error), String(status)).toBe(refused)
    }
    // Only what Octokit reports counts: an object that merely has a status is no answer.
    expect(refusedAccess({ status: 403 })).toBe(false)
    expect(describeGitHubError(Object.assign(new Error('odd'), { status: 502 }))).toBe(
      'no answer from GitHub (odd)'
    )
  })
})

describe('GitHub retries (@octokit/plugin-retry)', () => {
  const repo = { owner: 'acme', repo: 'docs', apiUrl: '' }
  /** Retries that wait 1, 4, 9 ms rather than seconds. */
  const connect = (cancel?: AbortSignal, retryBaseMs = 1) =>
    connectGitHub('ghs_t', { ...repo, apiUrl: gh.url }, cancel, { retryBaseMs })
  const sent = (method: string, part: string) =>
    gh.requests.filter(r => r.method === method && r.path.includes(part)).length

  it('retries a 502 on the pull request files, and the read succeeds', async () => {
    gh.addPull('acme/docs', { number: 4, files: [{ filename: 'a.ts' }, { filename: 'b.ts' }] })
    gh.failures.set('pull-files', { status: 502, times: 2 })
    const github = await connect()
    const pages: string[][] = []
    for await (const page of github.pullFilePages(4, 30)) pages.push(page.map(f => f.path))
    expect(pages).toEqual([['a.ts', 'b.ts']])
    expect(sent('GET', '/pulls/4/files')).toBe(3)
  })

  it('retries updating a comment, and GitHub not answering, up to three times', async () => {
    const github = await connect()
    const id = await github.createComment(4, 'first')
    gh.failures.set('update-comment', { status: 503, times: 1 })
    await github.updateComment(id, 'second')
    expect(gh.commentsOn(4).map(c => c.body)).toEqual(['second'])
    expect(sent('PATCH', '/comments/')).toBe(2)

    gh.failures.set('permission', 500)
    await expect(github.permission('alice')).rejects.toMatchObject({ status: 500 })
    expect(sent('GET', '/permission')).toBe(4)
  })

  it('never retries creating a comment: one request on a 502', async () => {
    gh.failures.set('create-comment', { status: 502, times: 1 })
    const github = await connect()
    await expect(github.createComment(4, 'once')).rejects.toMatchObject({ status: 502 })
    expect(sent('POST', '/comments')).toBe(1)
    expect(gh.comments).toHaveLength(0)
  })

  it("sends a comment creation again once after GitHub's secondary rate limit, whose answer proves nothing was posted", async () => {
    gh.failures.set('create-comment', { status: 429, times: 1, retryAfter: 30 })
    const clock = new VirtualClock()
    const github = await connectGitHub('ghs_t', { ...repo, apiUrl: gh.url }, undefined, { clock })
    const id = await github.createComment(4, 'once')
    expect(gh.comments.map(c => [c.id, c.body])).toEqual([[id, 'once']])
    expect(sent('POST', '/comments')).toBe(2)
    expect(clock.pauses).toEqual([30_000])
  })

  it('never sends a comment creation a third time, however short the wait', async () => {
    gh.failures.set('create-comment', { status: 403, times: 5, retryAfter: 1 })
    const clock = new VirtualClock()
    const github = await connectGitHub('ghs_t', { ...repo, apiUrl: gh.url }, undefined, { clock })
    await expect(github.createComment(4, 'once')).rejects.toThrow(
      "GitHub's secondary rate limit stopped POST /repos/{owner}/{repo}/issues/{issue_number}/comments 2 times (a creation is sent again once at most). Run the workflow again later, or space its runs out (e.g. a concurrency group)."
    )
    expect(sent('POST', '/comments')).toBe(2)
    expect(gh.comments).toHaveLength(0)
  })

  it('waits for a rate limit up to the deadline it is given, then says what GitHub asked, without waiting', async () => {
    gh.failures.set('permission', { status: 403, times: 3, retryAfter: 60 })
    const clock = new VirtualClock()
    const github = await connectGitHub('ghs_t', { ...repo, apiUrl: gh.url }, undefined, {
      clock,
      deadline: clock.now() + 150_000
    })
    const error = await github.permission('alice').catch((e: unknown) => e)
    // The module the connection came from (loaded afresh), whose error classes it throws.
    const { describeGitHubError, refusedAccess } = await import('../../src/github/api.js')
    // Two waits of a minute fit in 150 s; a third would end past it.
    expect(clock.pauses).toEqual([60_000, 60_000])
    expect(sent('GET', '/permission')).toBe(3)
    expect(describeGitHubError(error)).toMatch(
      /^GitHub's secondary rate limit stopped GET \/repos\/\{owner\}\/\{repo\}\/collaborators\/\{username\}\/permission, asking to wait 1m: past the step's time limit \('timeout', (29|30)s left\)/
    )
    expect(refusedAccess(error)).toBe(false)
  })

  it('waits at most a minute for a rate limit without a deadline, and a read at most three times', async () => {
    gh.failures.set('permission', { status: 429, times: 1, retryAfter: 61 })
    const clock = new VirtualClock()
    const github = await connectGitHub('ghs_t', { ...repo, apiUrl: gh.url }, undefined, { clock })
    await expect(github.permission('alice')).rejects.toThrow(
      /asking to wait 1m 1s: longer than this step waits \(1m\)/
    )
    expect(clock.pauses).toEqual([])
    gh.failures.set('permission', { status: 403, times: 4, retryAfter: 2 })
    await expect(github.permission('alice')).rejects.toThrow(
      / 4 times\. Run the workflow again later/
    )
    expect(clock.pauses).toEqual([2000, 2000, 2000])
  })

  it('does not retry a refusal (403, 404)', async () => {
    gh.addPull('acme/docs', { number: 4 })
    gh.failures.set('pull-files', 403)
    const github = await connect()
    const read = async () => {
      for await (const _page of github.pullFilePages(4, 30)) return
    }
    await expect(read()).rejects.toMatchObject({ status: 403 })
    expect(sent('GET', '/files')).toBe(1)
  })

  it("waits 1, 4 and 9 s before the retries (the plugin's schedule), on the clock it is given", async () => {
    gh.failures.set('permission', 502)
    const waits: number[] = []
    let now = 0
    const clock = {
      now: () => now,
      wallNow: () => now,
      timeout: (ms: number) => AbortSignal.timeout(ms),
      sleep: async (ms: number) => {
        waits.push(ms)
        now += ms
      }
    }
    const github = await connectGitHub('ghs_t', { ...repo, apiUrl: gh.url }, undefined, { clock })
    await expect(github.permission('alice')).rejects.toMatchObject({ status: 502 })
    expect(waits).toEqual([1000, 4000, 9000])
    expect(sent('GET', '/permission')).toBe(4)
    // Twice the base: 2 s and 8 s fit in 15 s, the next 18 s does not.
    waits.length = 0
    const slower = await connectGitHub('ghs_t', { ...repo, apiUrl: gh.url }, undefined, {
      clock,
      retryBaseMs: 2000
    })
    await expect(slower.permission('alice')).rejects.toMatchObject({ status: 502 })
    expect(waits).toEqual([2000, 8000])
  })

  it('begins no wait that would end past the 15 s time limit', async () => {
    gh.failures.set('permission', 502)
    // The first retry would come after 16 s.
    const clock = new VirtualClock()
    const github = await connectGitHub('ghs_t', { ...repo, apiUrl: gh.url }, undefined, {
      clock,
      retryBaseMs: 16_000
    })
    await expect(github.permission('alice')).rejects.toMatchObject({ status: 502 })
    expect(clock.pauses).toEqual([])
    expect(sent('GET', '/permission')).toBe(1)
  })

  it('stops waiting to retry at the cancel, with what GitHub last said, and sends nothing more', async () => {
    gh.failures.set('permission', 502)
    const cancel = new AbortController()
    // Its waits last until the cancel: only the cancel can end this one.
    const clock = new HeldClock()
    const github = await connectGitHub('ghs_t', { ...repo, apiUrl: gh.url }, cancel.signal, {
      clock,
      retryBaseMs: 5000
    })
    const call = github.permission('alice')
    await clock.pausesReach(1)
    expect(clock.pauses).toEqual([5000])
    cancel.abort(new Error('Received SIGINT'))
    await expect(call).rejects.toMatchObject({ status: 502 })
    // Settled: no retry of this call can follow.
    expect(sent('GET', '/permission')).toBe(1)
  })

  it.each([
    ['a read', 'permission', (github: GitHubApi) => github.permission('alice')],
    // Octokit's paginate passes no per-call request options on: the bound is set in a hook.
    ['a paginated read', 'list-comments', (github: GitHubApi) => github.listComments(4)]
  ])('stops %s in flight at the cancel, and does not retry it', async (_, route, call) => {
    // GitHub never answers: only the cancel can end the request.
    gh.delays.set(route, Infinity)
    const cancel = new AbortController()
    const github = await connect(cancel.signal)
    const pending = call(github)
    await gh.received(/./)
    cancel.abort(new Error('Received SIGINT'))
    const error = await pending.catch((e: unknown) => e)
    expect(error).toMatchObject({ status: 500, message: 'Received SIGINT' })
    // Settled: no retry of this call can follow.
    expect(gh.requests).toHaveLength(1)
    expect(gh.requests[0]?.status).toBeUndefined()
  })
})

describe('GitHub pages (octokit.paginate)', () => {
  const connect = () => connectGitHub('ghs_t', { owner: 'acme', repo: 'docs', apiUrl: gh.url })
  const sent = (part: string) => gh.requests.filter(r => r.path.includes(part)).length

  it("reads a pull request's files a page at a time, and no page nobody asked for", async () => {
    const files = (n: number) => Array.from({ length: n }, (_, i) => ({ filename: `f${i}.ts` }))
    gh.addPull('acme/docs', { number: 4, files: files(75) })
    const github = await connect()
    for await (const page of github.pullFilePages(4, 30)) {
      expect(page.map(f => f.path).slice(0, 2)).toEqual(['f0.ts', 'f1.ts'])
      break
    }
    expect(sent('/pulls/4/files')).toBe(1)
    const sizes: number[] = []
    for await (const page of github.pullFilePages(4, 30)) sizes.push(page.length)
    expect(sizes).toEqual([30, 30, 15])
    expect(sent('/pulls/4/files')).toBe(1 + 3)
  })

  it("reads a commit's files by page and per_page", async () => {
    const files = Array.from({ length: 45 }, (_, i) => ({ filename: `f${i}.ts`, patch: `+${i}` }))
    gh.commits.set('b'.repeat(40), { sha: 'b'.repeat(40), message: 'm', files })
    const github = await connect()
    expect((await github.commitFiles('b'.repeat(40), 2, 30)).map(f => f.path)).toEqual(
      files.slice(30).map(f => f.filename)
    )
  })

  it("names a commit's files without their patches, a page of 100 at a time, the rest as before", async () => {
    const files = Array.from({ length: 150 }, (_, i) => ({
      filename: `f${i}.ts`,
      additions: i,
      status: i % 2 ? ('added' as const) : ('modified' as const),
      ...(i === 7 ? { previous_filename: 'old.ts', status: 'renamed' as const } : {}),
      patch: `@@ -1 +1 @@\n+"${'x'.repeat(1000)}" \\ ,"patch": ${i}`
    }))
    gh.commits.set('c'.repeat(40), { sha: 'c'.repeat(40), message: 'm "patch": x', files })
    const github = await connect()
    const first = await github.commitPaths('c'.repeat(40), 1, 100)
    const second = await github.commitPaths('c'.repeat(40), 2, 100)
    const withPatches = await github.commitFiles('c'.repeat(40), 1, 150)
    expect([...first, ...second]).toEqual(withPatches.map(({ patch: _patch, ...f }) => f))
    expect(first).toHaveLength(100)
    expect(first[7]).toEqual({
      path: 'f7.ts',
      previousPath: 'old.ts',
      status: 'renamed',
      additions: 7,
      deletions: 0
    })
    expect(gh.requests.at(-2)?.query).toEqual({ page: '2', per_page: '100' })
  })

  it('lists the issues with a label, open and closed, newest first, in one request', async () => {
    const github = await connect()
    const first = await github.createIssue('Docs agent dashboard', 'one', ['docs-agent-dashboard'])
    await github.createIssue('Other', 'two', ['bug'])
    const closed = await github.createIssue('Old dashboard', 'three', ['docs-agent-dashboard'])
    await github.updateIssue(closed.number, { state: 'closed' })
    const listed = gh.requests.filter(r => r.method === 'GET').length
    const found = await github.issuesWithLabel('docs-agent-dashboard')
    expect(found.map(i => [i.title, i.state])).toEqual([
      ['Old dashboard', 'closed'],
      ['Docs agent dashboard', 'open']
    ])
    expect(found[1]).toMatchObject({
      number: first.number,
      body: 'one',
      labels: ['docs-agent-dashboard'],
      url: `https://github.com/acme/docs/issues/${first.number}`
    })
    expect(gh.requests.filter(r => r.method === 'GET').length - listed).toBe(1)
  })
})

describe("lastPage: the last page a link header names, whatever GitHub's answer holds", () => {
  it.each([
    [
      '<https://api.github.com/x?page=2>; rel="next", <https://api.github.com/x?page=7>; rel="last"',
      7
    ],
    ['<https://api.github.com/x?page=2>; rel="next"', 1],
    [undefined, 1],
    ['<https://api.github.com/x?page=abc>; rel="last"', 1],
    ['<https://api.github.com/x?page=1e400>; rel="last"', 1],
    ['<https://api.github.com/x?page=-3>; rel="last"', 1],
    ['<not a url>; rel="last"', 1]
  ])('%j → %i', (link, page) => expect(lastPage(link)).toBe(page))
})

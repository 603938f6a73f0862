import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { RequestError } from '@octokit/request-error'
import { describeGitHubError, refusedAccess } from '../../src/github/api.js'
import { GitHubSession } from '../../src/github/session.js'
import {
  DocsPullError,
  type DocsTokenSource,
  docsFailure,
  grantSentence
} from '../../src/github/docs-pulls.js'
import { FakeGitHub } from '../simulator/fake-github.js'

const DOCS = { owner: 'acme', repo: 'docs' }
const PULL = { ...DOCS, number: 3 }
const OWN: DocsTokenSource = { tokenInput: 'docs-token', docsInput: 'docs-token' }
const RUNS: DocsTokenSource = { tokenInput: 'github-token', docsInput: 'docs-token' }

let gh: FakeGitHub
const sessions: GitHubSession[] = []
beforeAll(async () => {
  gh = await FakeGitHub.start()
})
afterAll(async () => {
  await Promise.all(sessions.map(s => s.close()))
  await gh.close()
})
beforeEach(() => {
  gh.reset()
  gh.addPull('acme/docs', { number: 3, state: 'open', merged: false })
})

/** The door over the fake GitHub, with `token` from `source`. */
function door(source: DocsTokenSource, token = 'ghp_docs') {
  const session = new GitHubSession({ retryBaseMs: 1 })
  sessions.push(session)
  return session.docsPulls(token, source, gh.url)
}

/** What the door threw, as a DocsPullError. */
async function failure(call: Promise<unknown>): Promise<DocsPullError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e
  )
  expect(error).toBeInstanceOf(DocsPullError)
  return error as DocsPullError
}

describe('the door to the docs repository: one access check', () => {
  it('reads a pull request, its comments, and comments on it, with the token given', async () => {
    const docs = door(OWN)
    expect(await docs.pull(PULL)).toMatchObject({ number: 3, state: 'open', merged: false })
    await docs.comment(PULL, 'Hello')
    expect((await docs.comments(PULL)).map(c => c.body)).toEqual(['Hello'])
    expect(gh.requests.every(r => r.authorization === 'token ghp_docs')).toBe(true)
    expect(docs.tokenInput).toBe('docs-token')
  })

  it.each([401, 403, 404])('tells HTTP %i apart as refused, with what to grant', async status => {
    gh.refusedTokens.set('ghp_docs', status)
    const error = await failure(door(OWN).pull(PULL))
    expect(error.why).toBe(`HTTP ${status}`)
    expect(error.refused).toBe(true)
    expect(error.missing).toBe(status === 404)
    expect(error.grant('read and write')).toBe(
      " Give 'docs-token' read and write access to the pull requests of acme/docs."
    )
  })

  it('a failure that is no refusal asks to grant nothing', async () => {
    gh.failures.set('pull', 502)
    const error = await failure(door(OWN).pull(PULL))
    expect(error.why).toBe('HTTP 502')
    expect(error.refused).toBe(false)
    expect(error.grant('read')).toBe('')
  })

  it('a pull request GitHub does not have is missing, and refused', async () => {
    const error = await failure(door(OWN).close({ ...DOCS, number: 99 }))
    expect(error).toMatchObject({ why: 'HTTP 404', refused: true, missing: true })
  })

  it('an unusable token fails at its first call, as a DocsPullError naming the input', async () => {
    const error = await failure(door(OWN, '${{ secrets.DOCS }}').comments(PULL))
    expect(error.why).toMatch(/^Input 'docs-token' is the text of a \$\{\{ … \}\} expression/)
    expect(error.refused).toBe(false)
    expect(gh.requests).toHaveLength(0)
  })

  it('names the contents too where the call reads them (a pull request’s files, the tree, a file)', async () => {
    gh.refusedTokens.set('ghp_docs', 403)
    const docs = door(OWN)
    for (const call of [docs.files(PULL, 1), docs.tree(DOCS), docs.fileText(DOCS, 'docs.json')])
      expect((await failure(call)).grant('read')).toBe(
        " Give 'docs-token' read access to the contents and pull requests of acme/docs."
      )
  })

  it('reads a docs pull request’s state once for every flow: merged before closed, its times, a draft', async () => {
    const docs = door(OWN)
    const at = (day: number) => Date.UTC(2026, 10, day)
    gh.addPull('acme/docs', {
      number: 4,
      state: 'open',
      merged: false,
      draft: true,
      createdAt: at(1)
    })
    gh.addPull('acme/docs', {
      number: 5,
      state: 'closed',
      merged: true,
      createdAt: at(1),
      mergedAt: at(3),
      closedAt: at(3)
    })
    gh.addPull('acme/docs', { number: 6, state: 'closed', merged: false, closedAt: at(4) })
    expect(await docs.state({ ...DOCS, number: 4 })).toEqual({
      state: 'open',
      draft: true,
      createdAt: at(1)
    })
    expect(await docs.state({ ...DOCS, number: 5 })).toMatchObject({
      state: 'merged',
      endedAt: at(3)
    })
    expect(await docs.state({ ...DOCS, number: 6 })).toMatchObject({
      state: 'closed',
      endedAt: at(4)
    })
  })

  it('whatever else was thrown is told apart the same way, asking to grant nothing', () => {
    expect(docsFailure(new Error('boom'))).toMatchObject({ refused: false, missing: false })
    expect(docsFailure(new Error('boom')).grant('read')).toBe('')
  })
})

describe('files of the docs repository, however large', () => {
  const MB = 1024 * 1024
  const big = `{"redirects":[${'{"source":"/a","destination":"/b"},'.repeat(70_000)}{}]}`
  beforeEach(() => {
    gh.trees.set('acme/docs', ['docs.json', 'big/docs.json', 'huge.json'])
    gh.texts.set('acme/docs:docs.json', '{"name":"Acme"}')
    gh.texts.set('acme/docs:big/docs.json', big)
    gh.sizes.set('acme/docs:huge.json', 150 * MB)
  })

  it('the fake answers as GitHub documents: past 1 MB a 403 too_large in JSON, no content in the object media type, bytes raw', async () => {
    const get = (accept: string) =>
      fetch(`${gh.url}/repos/acme/docs/contents/big%2Fdocs.json`, {
        headers: { accept, authorization: 'token ghp_docs' }
      })
    const json = await get('application/vnd.github+json')
    expect(json.status).toBe(403)
    expect(await json.json()).toMatchObject({ errors: [{ code: 'too_large' }] })
    const object = await get('application/vnd.github.object+json')
    expect(await object.json()).toMatchObject({ content: '', encoding: 'none', size: big.length })
    const raw = await get('application/vnd.github.raw+json')
    expect(raw.headers.get('content-type')).toBe('application/vnd.github.raw')
    expect(await raw.text()).toBe(big)
    const huge = await fetch(`${gh.url}/repos/acme/docs/contents/huge.json`, {
      headers: { accept: 'application/vnd.github.raw+json', authorization: 'token ghp_docs' }
    })
    expect(huge.status).toBe(403)
  })

  it('reads a file over 1 MB whole, raw; one past what it reads, or past what GitHub serves, is too large and never refused', async () => {
    const docs = door(OWN)
    expect(big.length).toBeGreaterThan(2 * MB)
    expect(await docs.fileText(DOCS, 'big/docs.json')).toBe(big)
    expect(gh.requests.at(-1)?.accept).toBe('application/vnd.github.raw+json')
    expect(await docs.fileText(DOCS, 'docs.json')).toBe('{"name":"Acme"}')
    expect(await docs.fileText(DOCS, 'big/docs.json', MB)).toEqual({
      problem: 'too-large',
      limit: MB,
      size: big.length
    })
    expect(await docs.fileText(DOCS, 'huge.json')).toEqual({
      problem: 'too-large',
      limit: 100 * MB
    })
    expect(await docs.fileText(DOCS, 'missing.json')).toEqual({ problem: 'missing' })
    // A refusal is still one, and names what to grant.
    gh.refusedTokens.set('ghp_docs', 403)
    expect((await failure(docs.fileText(DOCS, 'docs.json'))).refused).toBe(true)
  })

  it('a 403 too_large is no refusal: nothing to grant, and it says so', () => {
    const answer = (data: unknown) =>
      new RequestError('Forbidden', 403, {
        request: { method: 'GET', url: 'https://api.github.com/x', headers: {} },
        response: { status: 403, url: 'https://api.github.com/x', headers: {}, data }
      })
    const large = answer({
      message: 'This API returns blobs up to 1 MB in size.',
      errors: [{ code: 'too_large' }]
    })
    expect(refusedAccess(large)).toBe(false)
    expect(describeGitHubError(large)).toBe(
      'HTTP 403: the file is too large for GitHub to serve this way'
    )
    expect(docsFailure(large).grant('read')).toBe('')
    expect(refusedAccess(answer({ message: 'Resource not accessible by integration' }))).toBe(true)
  })

  it('reads many files’ texts in one GraphQL request', async () => {
    const docs = door(OWN)
    gh.requests.length = 0
    const files = await docs.fileTexts(DOCS, ['docs.json', 'big', 'nothing.mdx'])
    expect(files).toEqual(
      new Map<string, unknown>([
        ['docs.json', '{"name":"Acme"}'],
        ['big', { problem: 'missing' }],
        ['nothing.mdx', { problem: 'missing' }]
      ])
    )
    expect(gh.requests.map(r => `${r.method} ${r.path}`)).toEqual(['POST /graphql'])
    expect(gh.requests[0]?.responseBody).not.toHaveProperty('errors')
  })
})

describe('the door to the docs repository: one wording of what to grant', () => {
  it('with docs-token: give it the access the flow needs on that repository', () => {
    expect(grantSentence('read', DOCS, OWN)).toBe(
      " Give 'docs-token' read access to the pull requests of acme/docs."
    )
    expect(grantSentence('write', DOCS, OWN)).toBe(
      " Give 'docs-token' write access to the pull requests of acme/docs."
    )
  })

  it('with the run’s own token: set docs-token, since the docs repository may be private', async () => {
    expect(grantSentence('read', DOCS, RUNS)).toBe(
      " If the docs repository is private, set 'docs-token' to a token that can read its pull requests."
    )
    gh.refusedTokens.set('ghs_run', 404)
    const docs = door(RUNS, 'ghs_run')
    expect(docs.tokenInput).toBe('github-token')
    expect((await failure(docs.pull(PULL))).grant('read')).toBe(grantSentence('read', DOCS, RUNS))
    expect(docs.grant('read', DOCS)).toBe(grantSentence('read', DOCS, RUNS))
  })
})

describe("GitHub's answers, from any copy of Octokit", () => {
  /** What another copy of @octokit/request-error throws (@github/local-action brings its own). */
  class OtherRequestError extends Error {
    override name = 'HttpError'
    constructor(
      readonly status: number,
      readonly response: { status: number; data: unknown; headers: Record<string, string> }
    ) {
      super(`HTTP ${status}`)
    }
  }
  const answered = (status: number, data: unknown = {}) =>
    new OtherRequestError(status, { status, data, headers: {} })

  it('tells an answer by its shape, not its class: 404 is missing, 403 refused, too_large neither', () => {
    expect(refusedAccess(answered(404))).toBe(true)
    expect(describeGitHubError(answered(404))).toBe('HTTP 404')
    expect(refusedAccess(answered(403, { errors: [{ code: 'too_large' }] }))).toBe(false)
    expect(describeGitHubError(answered(403, { errors: [{ code: 'too_large' }] }))).toMatch(
      /HTTP 403: the file is too large/
    )
    // A call that got no answer is no HTTP status, whatever its class.
    const unanswered = Object.assign(new Error('fetch failed'), { name: 'HttpError', status: 500 })
    expect(refusedAccess(unanswered)).toBe(false)
    expect(describeGitHubError(unanswered)).toMatch(/^no answer from GitHub/)
    expect(
      refusedAccess(
        new RequestError('x', 403, {
          request: { method: 'GET', url: 'u', headers: {} },
          response: { status: 403, url: 'u', headers: {}, data: {} }
        })
      )
    ).toBe(true)
  })
})

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { GitHubSession } from '../../src/github/api.js'
import {
  DocsPullError,
  type DocsTokenSource,
  connectDocsPulls,
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
  const session = new GitHubSession()
  sessions.push(session)
  return connectDocsPulls(token, source, gh.url, undefined, { session, retryBaseMs: 1 })
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

  it('whatever else was thrown is told apart the same way, asking to grant nothing', () => {
    expect(docsFailure(new Error('boom'))).toMatchObject({ refused: false, missing: false })
    expect(docsFailure(new Error('boom')).grant('read')).toBe('')
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

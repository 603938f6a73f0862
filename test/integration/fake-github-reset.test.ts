import { getOctokit } from '@actions/github'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FakeGitHub } from '../simulator/fake-github.js'

let gh: FakeGitHub
beforeAll(async () => {
  gh = await FakeGitHub.start()
})
afterAll(() => gh.close())

/** An issue, a comment on it and a commit, made as a test makes them: their numbers. */
async function numbersOfOneTest() {
  const octokit = getOctokit('ghs_token', { baseUrl: gh.url })
  const where = { owner: 'acme', repo: 'app' }
  const { data: issue } = await octokit.rest.issues.create({ ...where, title: 'Dashboard' })
  const { data: comment } = await octokit.rest.issues.createComment({
    ...where,
    issue_number: issue.number,
    body: 'Starting.'
  })
  const commit = gh.commitTo('acme/app', { message: 'Add retries' })
  return { issue: issue.number, comment: comment.id, commit: commit.sha }
}

describe('the fake GitHub between tests', () => {
  it('reset() starts the issue, comment and commit numbers again, as a fresh fake gives them', async () => {
    const fresh = await numbersOfOneTest()
    const second = await numbersOfOneTest()
    expect(second.issue).toBeGreaterThan(fresh.issue)
    expect(second.comment).toBeGreaterThan(fresh.comment)
    expect(second.commit).not.toBe(fresh.commit)
    gh.reset()
    expect(await numbersOfOneTest()).toEqual(fresh)
  })
})

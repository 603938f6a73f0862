import { describe, expect, it } from 'vitest'
import { DocsPrRecords } from '../../src/records/docs-pr.js'
import { SIM_API_KEY, SIM_PROJECT } from '../simulator/server.js'
import { useAgentServices } from '../support/agent-services.js'
import { runInProcess } from '../support/run-in-process.js'

// Each action takes its own family of triggers. A workflow that names the wrong one (a v1 merge
// workflow moved to @v2 without `/changes`, a review workflow on the main action) is refused
// before any request, naming the action to use; an event a sub-action does not take is skipped.
const services = useAgentServices()
const TOKEN = 'ghs_families_token'

const run = (entry: string, eventName: string, event: unknown, inputs = {}) =>
  runInProcess({
    entry,
    clock: services.clock,
    inputs: services.inputs(TOKEN, inputs),
    event,
    env: services.env({ GITHUB_EVENT_NAME: eventName, GITHUB_REPOSITORY: 'acme/docs' })
  })

const merged = {
  action: 'closed',
  number: 42,
  pull_request: {
    number: 42,
    merged: true,
    merge_commit_sha: 'a'.repeat(40),
    base: { ref: 'main' }
  },
  repository: { full_name: 'acme/docs', default_branch: 'main' },
  sender: { login: 'maintainer', type: 'User' }
}
const review = {
  action: 'submitted',
  review: { id: 1, body: '/docs-agent Fix the example.', user: { login: 'maintainer' } },
  pull_request: { number: 12, html_url: 'https://github.com/acme/docs/pull/12' },
  sender: { login: 'maintainer', type: 'User' }
}
const labeled = {
  action: 'labeled',
  label: { name: 'docs-agent' },
  issue: {
    number: 7,
    title: 'Document retries',
    body: 'Retries.',
    html_url: 'https://github.com/acme/docs/issues/7'
  },
  sender: { login: 'maintainer', type: 'User' }
}

describe('one family of triggers per action', () => {
  it.each([
    ['pull_request_target', merged, 'mintlify/agent-action/changes@v2'],
    [
      'push',
      { ref: 'refs/heads/main', before: 'b'.repeat(40), after: 'c'.repeat(40) },
      'mintlify/agent-action/changes@v2'
    ],
    [
      'repository_dispatch',
      { action: 'docs-agent', client_payload: {} },
      'mintlify/agent-action/changes@v2'
    ],
    ['pull_request_review', review, 'mintlify/agent-action/review@v2']
  ])(
    'the main action refuses a %s event before any request, naming the action to use',
    async (name, event, uses) => {
      const result = await run('dist/index.js', name, event)
      expect(result.code).toBe(1)
      expect(result.log).toContain(`uses: ${uses}`)
      expect(result.log).not.toMatch(/\n\s+at .+:\d+:\d+/)
      expect(services.gh.requests).toEqual([])
      expect(services.sim.exchanges).toHaveLength(0)
    }
  )

  it('the changes sub-action refuses a review, and skips an issue or a comment with a notice, before any request', async () => {
    const refused = await run('dist/changes/index.js', 'pull_request_review', review)
    expect(refused.code).toBe(1)
    expect(refused.log).toContain('uses: mintlify/agent-action/review@v2')
    const skipped = await run('dist/changes/index.js', 'issues', labeled)
    expect(skipped.code).toBe(0)
    expect(skipped.outputs.result).toBe('skipped')
    expect(skipped.log).toContain('An issues event is not a code change')
    expect(skipped.log).toContain('uses: mintlify/agent-action@v2')
    expect(services.gh.requests).toEqual([])
    expect(services.sim.exchanges).toHaveLength(0)
  })

  it('the review sub-action skips an issue with a notice naming the other actions', async () => {
    const skipped = await run('dist/review/index.js', 'issues', labeled, {
      'docs-token': 'ghs_docs'
    })
    expect(skipped.outputs.result).toBe('skipped')
    expect(skipped.log).toContain('An issues event is not a review or a comment on a pull request')
    expect(services.gh.requests).toEqual([])
  })

  it('the main action leaves a /docs-agent comment on a docs pull request of the agent to the review sub-action', async () => {
    const { gh, sim } = services
    const records = new DocsPrRecords(SIM_API_KEY)
    gh.addComment(
      12,
      records.render({ pr: 'acme/docs#12', job: 'job_77', project: SIM_PROJECT }),
      { login: 'docs-writer[bot]', type: 'Bot' },
      'acme/docs'
    )
    const comment = {
      action: 'created',
      issue: {
        number: 12,
        title: 'Docs: retries',
        body: 'The agent wrote this.',
        html_url: 'https://github.com/acme/docs/pull/12',
        pull_request: { url: 'https://api.github.com/repos/acme/docs/pulls/12' }
      },
      comment: { id: 5, body: '/docs-agent Add an example.' },
      sender: { login: 'maintainer', type: 'User' }
    }
    const result = await run('dist/index.js', 'issue_comment', comment)
    expect(result.code).toBe(0)
    expect(result.outputs.result).toBe('skipped')
    expect(result.log).toContain('#12 is the docs pull request of job job_77')
    expect(result.log).toContain('uses: mintlify/agent-action/review@v2')
    expect(sim.requests('create')).toEqual([])
    expect(sim.requests('message')).toEqual([])
    expect(gh.comments).toHaveLength(1)
  })
})

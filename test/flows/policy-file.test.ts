import { describe, expect, it } from 'vitest'
import { useAgentServices } from '../support/agent-services.js'
import { runInProcess } from '../support/run-in-process.js'
import { isPolicyRead } from '../support/policy-file.js'

// The policy file (.github/docs-agent.yml) through the real run(): read from the default branch
// through the contents API, checked with its file, line and key in every error, and v1's inputs
// refused before any request, naming their new place with the YAML to paste.
const services = useAgentServices()
const TOKEN = 'ghs_policy_token'
const REPO = 'acme/docs'
const FILE = '.github/docs-agent.yml'

const labelled = {
  action: 'labeled',
  label: { name: 'docs-agent' },
  issue: {
    number: 7,
    title: 'Document the retry options',
    body: 'The client gained retries.',
    html_url: 'https://github.com/acme/docs/issues/7'
  },
  sender: { login: 'maintainer', type: 'User' }
}

const onIssue = (inputs: Record<string, string> = {}, asGiven = false) =>
  runInProcess({
    clock: services.clock,
    inputs: services.inputs(TOKEN, inputs),
    event: labelled,
    env: services.env({ GITHUB_REPOSITORY: REPO, GITHUB_RUN_ID: '77' }),
    asGiven
  })

describe('the policy file', () => {
  it('is read from the default branch and decides the run: required-permission admin refuses a writer', async () => {
    const { gh, sim } = services
    gh.setFile(REPO, FILE, 'required-permission: admin\n')
    const result = await onIssue()
    expect(result.outputs.result).toBe('skipped')
    expect(result.log).toContain(`Policy: ${FILE} of ${REPO}.`)
    expect(result.log).toContain("'required-permission' asks for 'admin'")
    expect(gh.requests.filter(isPolicyRead)).toHaveLength(1)
    expect(sim.exchanges).toHaveLength(0)
  })

  it('without a file, runs on the built-in defaults and says so', async () => {
    const result = await onIssue()
    expect(result.outputs.result).toBe('pr-opened')
    expect(result.log).toContain(
      `Policy: the built-in defaults (${REPO} has no ${FILE} on its default branch).`
    )
  })

  it('names the file, the line, the column and the key of a wrong value, and spends nothing', async () => {
    const { gh, sim } = services
    gh.setFile(REPO, FILE, 'extends: standard\nmax-jobs: 5 a day\n')
    const result = await onIssue()
    expect(result.code).toBe(1)
    expect(result.log).toMatch(
      /::error::.*\.github\/docs-agent\.yml:2:11: max-jobs: must be N\/day, N\/week or N\/month/
    )
    expect(sim.exchanges).toHaveLength(0)
    expect(gh.comments).toHaveLength(0)
  })

  it('a read GitHub refuses names contents: read, not a missing file', async () => {
    const { gh } = services
    gh.setFile(REPO, FILE, 'extends: cautious\n')
    gh.failures.set('contents', 403)
    const result = await onIssue()
    expect(result.code).toBe(1)
    expect(result.log).toMatch(/::error::.*docs-agent\.yml.*'contents: read'/)
  })

  it('a path the workflow names must exist; one that does is read', async () => {
    const { gh } = services
    const missing = await onIssue({ config: 'docs/agent.yml' })
    expect(missing.code).toBe(1)
    expect(missing.log).toMatch(
      /::error::.*docs\/agent\.yml.*input 'config' names this file, but the default branch has none/
    )
    gh.setFile(REPO, 'docs/agent.yml', 'required-permission: none\n')
    const named = await onIssue({ config: 'docs/agent.yml' })
    expect(named.log).toContain(`Policy: docs/agent.yml of ${REPO}.`)
    expect(named.outputs.result).toBe('pr-opened')
  })

  it('a path out of the repository is refused before any request', async () => {
    const result = await onIssue({ config: '../secrets.yml' })
    expect(result.code).toBe(1)
    expect(result.log).toMatch(/::error::.*input 'config' takes a path from the repository's root/)
    expect(services.gh.requests).toEqual([])
  })

  it('a file larger than a policy can be is refused, not parsed', async () => {
    services.gh.setFile(REPO, FILE, `# ${'x'.repeat(70 * 1024)}\n`)
    const result = await onIssue()
    expect(result.code).toBe(1)
    expect(result.log).toMatch(/::error::.*larger than 64 KB/)
  })
})

describe("v1's inputs, moved in v2", () => {
  it('are refused before any request, each named with its new place, and the YAML to paste is in the summary and the log', async () => {
    const { gh, sim } = services
    const result = await onIssue(
      {
        'max-jobs': '5/day',
        approval: 'dashboard',
        'follow-reviews': 'all',
        changes: 'since-last'
      },
      true
    )
    expect(result.code).toBe(1)
    expect(result.log).toMatch(
      /::error::mintlify\/agent-action@v2 was given inputs that are not its own in v2: 'max-jobs', 'approval', 'changes', 'follow-reviews'\./
    )
    expect(gh.requests).toEqual([])
    expect(sim.exchanges).toHaveLength(0)
    for (const text of [result.summary, result.log]) {
      expect(text).toContain("- 'max-jobs': a key of the policy file .github/docs-agent.yml now")
      expect(text).toContain("- 'follow-reviews': an input of mintlify/agent-action/review@v2")
      expect(text).toContain('max-jobs: 5/day')
      expect(text).toContain('approval: dashboard')
    }
    expect(result.summary).toMatch(/```text\n[\s\S]*# yaml-language-server: \$schema=/)
  })

  it('a dry run with moved inputs prints the same file: a preview is where a migration starts', async () => {
    const result = await onIssue(
      { 'dry-run': 'true', 'allowed-bots': 'renovate, dependabot' },
      true
    )
    expect(result.code).toBe(1)
    expect(result.summary).toContain('allowed-bots:\n  - renovate\n  - dependabot')
  })
})

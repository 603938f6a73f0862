import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { BatchPull, ChangeBatch } from '../../src/agent/batch.js'
import { isChangeRun, planChange } from '../../src/changes/change-plan.js'
import { changePrompt } from '../../src/changes/change-prompt.js'
import { codeRepository } from '../../src/policy/code-repositories.js'
import { renderDashboard } from '../../src/agent/ledger/dashboard-body.js'
import { type PlanSettings, readInputs, secretsOf } from '../../src/agent/settings.js'
import { changesAction } from '../../src/changes/changes-action.js'
import { DEFAULT_POLICY_PATH } from '../../src/policy/load.js'
import { defaultPolicy } from '../../src/policy/policy.js'
import { readPolicy } from '../../src/policy/read.js'
import { readRunEvent } from '../../src/github/event.js'
import { type Ledger, emptyProject, ledgerRecord, readLedger } from '../../src/records/ledger.js'
import { RecordSigner } from '../../src/records/record.js'
import { InputError, describeError } from '../../src/runner/errors.js'
import { PUBLISHED_DISPATCHES } from '../support/docs-project-runs.js'
import { temporaryFolder } from '../support/temporary.js'

const DOCS = 'acme/docs'
const sha = (c: string): string => c.repeat(40)

describe('code-repositories: the docs project’s repositories, each with its own path rules', () => {
  const settings = async (policy: string, inputs: Record<string, string> = {}) =>
    changesAction.settings(
      readInputs(
        name => ({ 'api-key': 'mint_k', 'project-id': 'proj_1', ...inputs })[name] ?? '',
        { GITHUB_REPOSITORY: DOCS },
        () => undefined
      ),
      policy ? await readPolicy(policy, DEFAULT_POLICY_PATH, { repository: DOCS }) : defaultPolicy()
    )

  it('needs the dashboard; since needs code-repositories and is a window of an hour to 90 days', async () => {
    expect(await settings('code-repositories: [acme/api]\nsince: 30d')).toMatchObject({
      codeRepositories: [{ name: 'acme/api', owner: 'acme', repo: 'api' }],
      since: { ms: 30 * 86_400_000, text: '30d' }
    })
    expect((await settings('')).codeRepositories).toBeUndefined()
    await expect(settings('code-repositories: [acme/api]\ndashboard: false')).rejects.toThrow(
      /needs dashboard: true/
    )
    await expect(settings('since: 30d')).rejects.toThrow(/since.*needs code-repositories/)
    await expect(settings('', { 'code-token': 'ghs_x' })).rejects.toThrow(
      /'code-token' needs 'code-repositories'/
    )
    const masked: string[] = []
    const withToken = readInputs(
      name =>
        ({
          'api-key': 'mint_k',
          'project-id': 'p',
          'code-token': 'ghs_code'
        })[name] ?? '',
      { GITHUB_REPOSITORY: DOCS },
      secret => masked.push(secret)
    )
    expect(masked).toContain('ghs_code')
    // Redacted, in any form, from a failure the step ends with (and from outputs, summary, comments).
    const failure = describeError(
      new Error(`GitHub refused ghs_code, sent as ${encodeURIComponent('ghs_code/')}`),
      secretsOf(withToken)
    )
    expect(failure).not.toContain('ghs_code')
    expect(failure).toContain('***')
    await expect(settings('code-repositories: [acme/api]\nsince: 91d')).rejects.toThrow(InputError)
  })
})

const dir = temporaryFolder('dispatch-')
let n = 0
const eventOf = (payload: unknown, name = 'repository_dispatch') => {
  const file = path.join(dir, `event-${n++}.json`)
  writeFileSync(file, JSON.stringify(payload))
  return readRunEvent({
    GITHUB_EVENT_PATH: file,
    GITHUB_EVENT_NAME: name,
    GITHUB_REPOSITORY: DOCS
  })
}
const published = PUBLISHED_DISPATCHES

describe('repository_dispatch: the event type and the hint in client_payload, untrusted', () => {
  it('reads GitHub’s published example: its type, no repository named', () => {
    expect(published.length).toBeGreaterThan(0)
    for (const example of published)
      expect(eventOf(example).dispatch).toEqual({ type: example.action, malformed: false })
  })

  it('keeps the repository only as owner/repo and the commit only as a full id', () => {
    const base = published[0] as Record<string, unknown>
    const with_ = (client_payload: unknown) =>
      eventOf({ ...base, action: 'docs-agent', client_payload }).dispatch
    expect(with_({ repository: 'acme/api', sha: sha('A') })).toEqual({
      type: 'docs-agent',
      repository: 'acme/api',
      sha: sha('a'),
      malformed: false
    })
    expect(with_({ repository: 'acme/api\n::error::x', sha: 'abc' })).toEqual({
      type: 'docs-agent',
      malformed: true
    })
    expect(with_({ repository: 42 })).toEqual({ type: 'docs-agent', malformed: false })
    expect(with_('not an object')).toEqual({ type: 'docs-agent', malformed: false })
    expect(eventOf({ ...base }, 'push').dispatch).toBeUndefined()
  })
})

describe('planChange with code-repositories', () => {
  const settings: PlanSettings = {
    label: '',
    dashboard: true,
    codeRepositories: [codeRepository('acme/api'), codeRepository('acme/cli')]
  }
  const dispatch = (client_payload: unknown, action = 'docs-agent') =>
    eventOf({ ...(published[0] as object), action, client_payload })

  it('takes a dispatch from a listed repository as a hint to catch up on them all', () => {
    const event = dispatch({ repository: 'ACME/API', sha: sha('b') })
    expect(isChangeRun(event)).toBe(true)
    expect(planChange(settings, event)).toEqual({
      kind: 'project',
      hint: { repository: 'acme/api', sha: sha('b') }
    })
    expect(planChange(settings, dispatch({}))).toEqual({ kind: 'project' })
    expect(planChange(settings, eventOf({}, 'schedule'))).toEqual({ kind: 'project' })
    // Without code-repositories a dispatch asks the workflow's own repository to catch up.
    expect(planChange({ ...settings, codeRepositories: undefined }, event)).toEqual({
      kind: 'since-last'
    })
  })

  it('ignores, with the reason, a dispatch from a repository not listed, of another type, or malformed', () => {
    expect(planChange(settings, dispatch({ repository: 'evil/repo' }))).toEqual({
      kind: 'skip',
      why: "Ignored a repository_dispatch from evil/repo: it is not one of 'code-repositories' (acme/api, acme/cli). Add it there to document it."
    })
    expect(planChange(settings, dispatch({ repository: 'acme/api' }, 'deploy`\n'))).toEqual({
      kind: 'skip',
      why: "Ignored a repository_dispatch of type 'deploy??': the docs agent takes type 'docs-agent'."
    })
    expect(planChange(settings, dispatch({ repository: '../../etc' }))).toMatchObject({
      kind: 'skip',
      why: expect.stringContaining('not owner/repo')
    })
  })

  it('never documents the docs repository’s own pull requests and pushes', () => {
    const pull = eventOf(
      { action: 'closed', pull_request: { number: 3, merged: true, base: { ref: 'main' } } },
      'pull_request'
    )
    expect(planChange(settings, pull)).toMatchObject({
      kind: 'skip',
      why: expect.stringContaining("the docs repository's own pull requests are the docs")
    })
  })
})

const pull = (repository: string, number: number, title: string): BatchPull => ({
  number,
  title,
  body: `What ${title} does.`,
  url: `https://github.com/${repository}/pull/${number}`,
  author: 'alice',
  authorIsBot: false,
  base: 'main',
  labels: [],
  merged: true,
  mergeCommit: sha(String(number % 10)),
  state: 'closed',
  changedFiles: 1,
  additions: 1,
  deletions: 0,
  files: [{ path: 'src/a.ts', additions: 1, deletions: 0, status: 'modified' }],
  filesComplete: true,
  repository
})

describe('a batch of several repositories', () => {
  const batch: ChangeBatch = {
    repository: DOCS,
    branch: '',
    url: '',
    head: '',
    pulls: [pull('acme/api', 7, 'Add retries'), pull('acme/cli', 7, 'Add --retries')],
    commits: [],
    skipped: [],
    leftOut: [],
    parts: [
      {
        name: 'acme/api',
        branch: 'main',
        head: sha('c'),
        base: sha('a'),
        url: 'https://github.com/acme/api/compare/a...c'
      },
      { name: 'acme/web', branch: 'main', head: sha('d'), base: sha('d'), url: '' },
      {
        name: 'acme/cli',
        branch: 'trunk',
        head: sha('e'),
        url: 'https://github.com/acme/cli/commit/e'
      }
    ]
  }

  it('is described grouped by repository, in the listed order, skipping those without news', () => {
    const prompt = changePrompt(batch, { followUp: false })
    expect(prompt).toContain('the changes in acme/api, acme/cli (2 pull requests)')
    const api = prompt.indexOf('=== Repository: acme/api ===')
    const cli = prompt.indexOf('=== Repository: acme/cli ===')
    expect(api).toBeGreaterThan(0)
    expect(cli).toBeGreaterThan(prompt.indexOf('Pull request #7 (merged): Add retries'))
    expect(prompt.indexOf('Pull request #7 (merged): Add --retries')).toBeGreaterThan(cli)
    expect(prompt).not.toContain('acme/web')
    expect(prompt).toContain('Branch: trunk\nLink: https://github.com/acme/cli/commit/e')
    expect(prompt).toContain('Range: https://github.com/acme/api/compare/a...c')
  })

  it('keeps each repository’s watermark in the signed ledger; a ledger without them reads as before', () => {
    const signer = new RecordSigner('mint_k')
    const place = `${DOCS} dashboard`
    const ledger: Ledger = {
      v: 1,
      projects: {
        p: {
          ...emptyProject(),
          repositories: {
            'acme/api': { sha: sha('c'), at: 5, name: 'acme/api', branch: 'main' },
            // Out of shape: dropped, never trusted.
            'acme/cli': { sha: 'nope', at: 5, name: 'acme/cli', branch: 'main' },
            'other/x': { sha: sha('f'), at: 5, name: 'acme/api', branch: 'main' }
          } as never
        }
      }
    }
    const back = readLedger(ledgerRecord(ledger, signer, place, 10), signer, place)
    expect(back.ok && back.ledger.projects.p?.repositories).toEqual({
      'acme/api': { sha: sha('c'), at: 5, name: 'acme/api', branch: 'main' }
    })
    const old = {
      v: 1 as const,
      projects: { p: { ...emptyProject(), documented: { sha: sha('b'), at: 1 } } }
    }
    const oldBack = readLedger(ledgerRecord(old, signer, place, 10), signer, place)
    expect(oldBack.ok && oldBack.ledger.projects.p?.repositories).toBeUndefined()
    expect(oldBack.ok && oldBack.ledger.projects.p?.documented?.sha).toBe(sha('b'))

    const body = renderDashboard(back.ok ? back.ledger : ledger, {
      repository: DOCS,
      serverUrl: 'https://github.com',
      now: 10
    })
    expect(body).toContain('#### Code repositories')
    expect(body).toContain(
      `| [acme/api](https://github.com/acme/api) | \`main\` | [ccccccc](https://github.com/acme/api/commit/${sha('c')}) |`
    )
    expect(body).not.toContain('**Last documented commit**')
  })
})

import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { interpolate } from '../support/expressions.js'
import { gitHubValidator } from '../support/github-openapi.js'
import { SIM_API_KEY, SIM_PROJECT } from '../simulator/server.js'
import { ROOT } from '../support/run-action.js'
import type { FakeGitHub, FakePull } from '../simulator/fake-github.js'
import type { Simulator } from '../simulator/server.js'
import { type CodeChangeServers, DOCS_APP, DOCS_TOKEN } from '../support/code-change-runs.js'
import { codeChangeSuite } from '../support/code-change-suite.js'
import { DOCS, DocsProject } from '../support/docs-project-runs.js'
import type { RunOptions, RunResult } from '../support/run-action.js'
import { runInProcess } from '../support/run-in-process.js'
import { besidePolicy } from '../support/policy-file.js'
import { VirtualClock } from '../support/virtual-clock.js'

// One docs project fed by three code repositories (acme/api, acme/cli, acme/web): the docs
// repository's workflow runs on their dispatches and on a schedule, in-process against the
// simulator and the fake GitHub, every GitHub call checked against GitHub's OpenAPI description.
const DAY = 86_400_000
const clock = new VirtualClock()
let servers: CodeChangeServers
let sim: Simulator
let gh: FakeGitHub
let project: DocsProject
const suite = codeChangeSuite(clock, world => {
  servers = world
  ;({ sim, gh } = world)
})

/**
 * GitHub calls its OpenAPI description refuses; GraphQL's NOT_FOUND for a repository the token
 * cannot see is GitHub's own answer there, meant (the fake gives it on purpose).
 */
const problems = (): string[] =>
  suite.problems().filter(p => !p.includes('Could not resolve to a Repository'))
const run = (step: RunOptions): Promise<RunResult> => runInProcess({ clock, ...step })
const prompts = (route?: 'create' | 'message'): string[] => project.prompts(route)
const allPrompts = (): string[] => project.allPrompts()
/** The docs pull request of a job, as GitHub shows it in the docs repository. */
const docsPull = (link: unknown, state: 'open' | 'merged'): FakePull =>
  project.docsPull(link, state)
const dispatchRun = (repo: string, inputs: Record<string, string> = {}, sha?: string) =>
  run(project.step(project.dispatch(repo, sha), inputs))

/** `login` ticks the first box of the dashboard that `box` names, and the run of that edit. */
const tickBox = (box: string, login: string, inputs: Record<string, string> = {}) =>
  run(project.tick(box, login, inputs))

/** A first run of the project: each repository's head recorded, nothing started. */
async function firstRun(): Promise<RunResult> {
  project = new DocsProject(servers, clock.wallNow)
  project.init()
  const first = await run(project.schedule())
  expect(first.code).toBe(0)
  return first
}

describe('one docs project, several code repositories', () => {
  it("asks for issues: write when GitHub refuses the dashboard, never for 'dashboard: false', which a docs project cannot set", async () => {
    await firstRun()
    project.merge('acme/api')
    servers.gh.failures.set('update-issue', 403)
    const result = await run(project.schedule())
    expect(result.code).toBe(1)
    expect(result.log).toMatch(
      /::error::Could not write the docs agent dashboard issue \(HTTP 403\), which records what was handed to the agent, so nothing was started\. Give the workflow 'issues: write'\.$/m
    )
  })

  it('records each repository on the first run, then documents their merges in one prompt grouped by repository', async () => {
    const first = await firstRun()
    expect(first.outputs).toMatchObject({ result: 'skipped', decision: 'skip' })
    expect(first.log).toContain(
      'no code repository merged anything after its last documented commit'
    )
    for (const repo of ['acme/api', 'acme/cli', 'acme/web'])
      expect(first.log).toContain(`First look at ${repo}: its newest commit`)
    expect(project.watermarks()).toEqual({
      'acme/api': gh.headOf('acme/api'),
      'acme/cli': gh.headOf('acme/cli'),
      'acme/web': gh.headOf('acme/web')
    })
    expect(sim.requests('create')).toHaveLength(0)

    const api1 = project.merge('acme/api', { title: 'Add retries to the client' })
    const api2 = project.merge('acme/api', { title: 'Add backoff' })
    const cli1 = project.merge('acme/cli', { title: 'Add --retries' })
    const webHead = gh.headOf('acme/web')
    const result = await dispatchRun('acme/api', {}, api2.mergeCommit)
    expect(result.log).not.toContain('::error::')
    expect(result.outputs).toMatchObject({ result: 'pr-opened', decision: 'new-job' })
    expect(prompts()).toHaveLength(1)
    const prompt = prompts()[0] as string
    expect(prompt).toContain(
      'Update the documentation for what users see of the changes in acme/api, acme/cli (3 pull requests):'
    )
    // Each repository with changes is named where the run says what it documented, not only the first.
    const sources = (result.outputs.source ?? '').split('\n')
    expect(sources).toEqual([
      expect.stringMatching(/^https:\/\/github\.com\/acme\/api\//),
      expect.stringMatching(/^https:\/\/github\.com\/acme\/cli\//)
    ])
    expect(result.summary).toMatch(
      /\| Changes \| \[https:\/\/github\.com\/acme\/api\/.*\]\(.*\), \[https:\/\/github\.com\/acme\/cli\//
    )
    expect(result.log).toMatch(
      /Described 3 changes from https:\/\/github\.com\/acme\/api\/\S+, https:\/\/github\.com\/acme\/cli\//
    )
    const api = prompt.indexOf('=== Repository: acme/api ===')
    const cli = prompt.indexOf('=== Repository: acme/cli ===')
    expect(api).toBeGreaterThan(0)
    expect(prompt.indexOf('Pull request #1 (merged): Add retries to the client')).toBeGreaterThan(
      api
    )
    expect(prompt.indexOf('Pull request #2 (merged): Add backoff')).toBeGreaterThan(api)
    expect(prompt.indexOf('Pull request #1 (merged): Add --retries')).toBeGreaterThan(cli)
    expect(prompt).not.toContain('acme/web')
    // Three repositories listed, two with changes: the prompt counts what it describes.
    expect(prompt).toContain('Repositories with changes: 2\n')
    expect(project.watermarks()).toEqual({
      'acme/api': api2.mergeCommit,
      'acme/cli': cli1.mergeCommit,
      'acme/web': webHead
    })
    expect(project.ledger()?.jobs[0]?.changes).toEqual([
      expect.objectContaining({ pr: 1, repo: 'acme/api', sha: api1.mergeCommit }),
      expect.objectContaining({ pr: 2, repo: 'acme/api' }),
      expect.objectContaining({ pr: 1, repo: 'acme/cli' })
    ])
    // The dashboard shows each repository's watermark, and names each change's repository.
    const body = project.dashboards()[0]?.body ?? ''
    expect(body).toContain('#### Code repositories')
    expect(body).toContain(
      `| [acme/cli](https://github.com/acme/cli) | \`main\` | [${cli1.mergeCommit?.slice(0, 7)}](https://github.com/acme/cli/commit/${cli1.mergeCommit}) |`
    )
    expect(body).toMatch(
      /\[acme\/cli\\#\u200b?1\]\(https:\/\/github\.com\/acme\/cli\/pull\/1\) Add --retries/
    )
    // No comment goes to a pull request of the docs repository that shares a number with a change.
    expect(gh.comments.filter(c => c.repo === DOCS)).toEqual([])
    expect(problems()).toEqual([])
  })

  it('loses nothing when dispatches are lost or cancelled: the next run and the daily catch-up take every merge once', async () => {
    await firstRun()
    const merged: string[] = []
    const title = (repo: string, n: number) => `${repo} merge ${n}`
    // Five merges across the repositories; only the third one's dispatch arrives.
    for (const [i, repo] of [
      'acme/api',
      'acme/web',
      'acme/cli',
      'acme/web',
      'acme/api'
    ].entries()) {
      project.merge(repo, { title: title(repo, i) })
      merged.push(title(repo, i))
      if (i === 2) {
        const result = await dispatchRun(repo)
        expect(result.outputs.decision).toBe('new-job')
      }
    }
    const catchUp = await run(project.schedule())
    expect(catchUp.outputs.result).toBe('pr-opened')
    // Run again on a redelivered dispatch: nothing new, nothing sent.
    const again = await dispatchRun('acme/api')
    expect(again.outputs).toMatchObject({ result: 'skipped', decision: 'skip' })
    expect(again.log).toContain('merged is documented already')
    for (const t of merged)
      expect(
        allPrompts().filter(p => p.includes(t)),
        t
      ).toHaveLength(1)
    expect(sim.requests('create')).toHaveLength(2)
    expect(problems()).toEqual([])
  })

  it('never moves a repository’s watermark back when its branch was reset behind it', async () => {
    await firstRun()
    project.merge('acme/api', { title: 'Add retries' })
    const last = project.merge('acme/api', { title: 'Add backoff' })
    await dispatchRun('acme/api', {}, last.mergeCommit)
    expect(project.watermarks()['acme/api']).toBe(last.mergeCommit)
    // Someone resets acme/api's main one commit back, so that the watermark is on no branch; a
    // merge lands on acme/cli.
    gh.branches.get('acme/api:main')?.pop()
    const cli = project.merge('acme/cli', { title: 'Add --retries' })
    const next = await dispatchRun('acme/cli', {}, cli.mergeCommit)
    expect(next.outputs.result).toBe('pr-opened')
    expect(project.watermarks()['acme/api']).toBe(last.mergeCommit)
    expect(project.watermarks()['acme/cli']).toBe(cli.mergeCommit)
    expect(allPrompts().filter(p => p.includes('Add retries'))).toHaveLength(1)
    expect(problems()).toEqual([])
  })

  it('warns about a repository the token cannot read, naming it and what to grant, and documents the others', async () => {
    await firstRun()
    project.merge('acme/api', { title: 'Add retries' })
    const hidden = project.merge('acme/cli', { title: 'Add --retries' })
    const cliMark = project.watermarks()['acme/cli']
    gh.hiddenRepos.add('acme/cli')
    const result = await dispatchRun('acme/api')
    expect(result.code).toBe(0)
    expect(result.log).toMatch(
      /::warning::Could not read acme\/cli \(.*Could not resolve to a Repository with the name 'acme\/cli'.*\): the other code repositories go on\. Give 'github-token' read access to acme\/cli \(contents: read, pull-requests: read; with a GitHub App token, install the App on acme\/cli, and add cli to the token's 'repositories' if the workflow lists them\)/
    )
    expect(result.outputs.decision).toBe('new-job')
    expect(prompts()[0]).toContain('Add retries')
    expect(prompts()[0]).not.toContain('Add --retries')
    // Its watermark stays: once the token can read it, its merge is documented.
    expect(project.watermarks()['acme/cli']).toBe(cliMark)
    gh.hiddenRepos.clear()
    docsPull(result.outputs.prLink, 'merged')
    const next = await run(project.schedule())
    expect(next.outputs.decision).toBe('new-job')
    expect(prompts()[1]).toContain('Add --retries')
    expect(project.watermarks()['acme/cli']).toBe(hidden.mergeCommit)
    expect(problems()).toEqual([])
  })

  it('reads the code repositories with code-token while github-token, the docs repository’s own, writes the dashboard', async () => {
    await firstRun()
    const CODE_TOKEN = 'ghs_code_repositories_app_token'
    for (const repo of project.repositories) gh.privateRepos.set(repo, new Set([CODE_TOKEN]))
    project.merge('acme/web', { title: 'New settings page' })
    gh.requests.length = 0
    const result = await dispatchRun('acme/web', { 'code-token': CODE_TOKEN })
    expect(result.outputs.decision).toBe('new-job')
    expect(prompts()[0]).toContain('New settings page')
    // GraphQL reads naming a code repository in their variables: every head in one, then the
    // history and the pull requests of acme/web, the one with news.
    const codeReads = gh.requests.filter(r => {
      const values = Object.values((r.body as { variables?: object } | undefined)?.variables ?? {})
      return values.includes('acme') && values.some(v => ['api', 'cli', 'web'].includes(String(v)))
    })
    expect(codeReads).toHaveLength(3)
    expect(String((codeReads[0]?.body as { query?: string }).query)).toContain('r2: repository')
    for (const read of codeReads) expect(read.authorization).toContain(CODE_TOKEN)
    const dashboardWrites = gh.requests.filter(
      r => r.method === 'PATCH' && r.path.includes('/issues/')
    )
    expect(dashboardWrites.length).toBeGreaterThan(0)
    for (const write of dashboardWrites) expect(write.authorization).not.toContain(CODE_TOKEN)
    // Masked first, then never printed.
    expect(result.log).toContain(`::add-mask::${CODE_TOKEN}`)
    expect(result.log.replace(`::add-mask::${CODE_TOKEN}`, '')).not.toContain(CODE_TOKEN)
    // Without it, github-token cannot see them: a warning for each, naming what to grant it.
    project.merge('acme/web', { title: 'Another page' })
    const without = await run(project.schedule())
    expect(without.code).toBe(1)
    expect(without.log).toContain("Give 'github-token' read access to acme/web")
    expect(problems()).toEqual([])
  })

  it('never repeats code-token, in any form, when the service echoes it in a job or an error', async () => {
    await firstRun()
    const CODE_TOKEN = 'ghs_code_token_the_service_echoes'
    for (const repo of project.repositories) gh.privateRepos.set(repo, new Set([CODE_TOKEN]))
    /** Everything written: log (masks aside), outputs, summary, state, every body sent to GitHub. */
    const everything = (result: RunResult): string =>
      [
        result.log.replace(/^::add-mask::.*$/gm, ''),
        JSON.stringify(result.outputs),
        result.summary,
        JSON.stringify(result.state),
        JSON.stringify(gh.requests.map(r => r.body))
      ].join('\n')
    const forms = [CODE_TOKEN, encodeURIComponent(`x/${CODE_TOKEN}`), JSON.stringify(CODE_TOKEN)]
    // In the message of a refused request, which ends the step.
    project.merge('acme/api', { title: 'Add retries' })
    gh.requests.length = 0
    sim.inject({
      route: 'create',
      kind: 'status',
      status: 400,
      body: { message: `Token ${CODE_TOKEN} is not allowed here` }
    })
    const refused = await dispatchRun('acme/api', { 'code-token': CODE_TOKEN })
    expect(refused.code).toBe(1)
    expect(refused.log).toContain('::error::')
    for (const form of forms) expect(everything(refused)).not.toContain(form)
    // In a job's field, as it is and percent-encoded.
    project.merge('acme/web', { title: 'New settings page' })
    gh.requests.length = 0
    // The create answer's too: the log line naming its model is written before any report, and a
    // runner's mask knows only the plain form.
    for (const route of ['create', 'get'] as const)
      sim.inject({
        route,
        kind: 'tamper',
        fields: { model: `${CODE_TOKEN} ${forms[1]}` },
        times: 100
      })
    const echoed = await dispatchRun('acme/web', { 'code-token': CODE_TOKEN })
    expect(echoed.outputs.decision).toBe('new-job')
    expect(everything(echoed)).toContain('***')
    for (const form of forms) expect(everything(echoed)).not.toContain(form)
    expect(problems()).toEqual([])
  })

  it('fails, naming them, when it can read none of the repositories', async () => {
    await firstRun()
    for (const repo of project.repositories) gh.hiddenRepos.add(repo)
    const result = await run(project.schedule())
    expect(result.code).toBe(1)
    expect(result.log).toContain(
      "::error::Could not read any of the 3 code repositories of 'code-repositories' (acme/api, acme/cli, acme/web): nothing was started."
    )
    // As examples/docs-project.yml does: the App's token covers every repository it is installed on,
    // so that the policy file's list stays the only one.
    expect(result.log).toContain("'owner' and no 'repositories', so that it covers them all")
    expect(sim.requests('create')).toHaveLength(0)
    // A token GitHub refuses outright: the one request for the heads fails, naming what to grant.
    gh.hiddenRepos.clear()
    gh.refusedTokens.set('ghs_revoked_app_token', 401)
    const refused = await run(project.schedule({ 'code-token': 'ghs_revoked_app_token' }))
    expect(refused.code).toBe(1)
    expect(refused.log).toContain(
      "::warning::Could not read acme/api (HTTP 401): the other code repositories go on. Give 'code-token' read access to acme/api"
    )
    expect(sim.requests('create')).toHaveLength(0)
  })

  it('ignores a dispatch naming a repository it does not list, with a notice, reading nothing', async () => {
    await firstRun()
    project.merge('acme/api')
    gh.requests.length = 0
    const result = await dispatchRun('evil/repo')
    expect(result.code).toBe(0)
    expect(result.outputs).toMatchObject({ result: 'skipped', decision: 'skip' })
    expect(result.log).toContain(
      "::Not starting the agent: Ignored a repository_dispatch from evil/repo: it is not one of 'code-repositories' (acme/api, acme/cli, acme/web)."
    )
    // Only the policy file, which lists the repositories.
    expect(besidePolicy(gh.requests)).toEqual([])
    expect(sim.requests('create')).toHaveLength(0)
  })

  it('folds merges from any repository into the project’s one open docs pull request', async () => {
    await firstRun()
    project.merge('acme/api', { title: 'Add retries' })
    const first = await dispatchRun('acme/api', { 'docs-token': DOCS_TOKEN })
    expect(first.outputs.decision).toBe('new-job')
    docsPull(first.outputs.prLink, 'open')
    project.merge('acme/web', { title: 'New settings page' })
    const second = await dispatchRun('acme/web', { 'docs-token': DOCS_TOKEN })
    expect(second.outputs).toMatchObject({ decision: 'follow-up', jobId: first.outputs.jobId })
    expect(sim.requests('create')).toHaveLength(1)
    expect(prompts('message')[0]).toContain('=== Repository: acme/web ===')
    expect(prompts('message')[0]).toContain('New settings page')
    expect(project.ledger()?.jobs).toHaveLength(1)
    expect(project.ledger()?.jobs[0]?.changes.map(c => `${c.repo}#${c.pr}`)).toEqual([
      'acme/api#1',
      'acme/web#1'
    ])
    expect(problems()).toEqual([])
  })

  it('shows the outcomes per code repository once docs pull requests are merged and closed, a job of two repositories in both rows', async () => {
    await firstRun()
    const never = { fold: 'never' }
    /** The job's docs pull request as GitHub shows it: opened now, decided `after` ms later. */
    const decide = (link: unknown, merged: boolean, after: number) =>
      gh.addPull(DOCS, {
        number: Number(String(link).split('/').pop()),
        state: 'closed',
        merged,
        user: { login: 'mintlify[bot]', type: 'Bot' },
        createdAt: clock.wallNow(),
        ...(merged ? { mergedAt: clock.wallNow() + after } : {}),
        closedAt: clock.wallNow() + after
      })
    project.merge('acme/api', { title: 'Add retries' })
    project.merge('acme/cli', { title: 'Add --retries' })
    const both = await dispatchRun('acme/cli', never)
    expect(both.outputs.decision).toBe('new-job')
    decide(both.outputs.prLink, true, 5 * 3_600_000)
    await clock.sleep(DAY)
    project.merge('acme/cli', { title: 'Add --verbose' })
    const cli = await dispatchRun('acme/cli', never)
    expect(cli.outputs.decision).toBe('new-job')
    decide(cli.outputs.prLink, false, DAY)
    await clock.sleep(DAY)
    // Nothing merged since: the daily catch-up only reads what became of the docs pull requests.
    const catchUp = await run(project.schedule(never))
    expect(catchUp.code).toBe(0)
    const body = project.dashboards()[0]?.body ?? ''
    expect(body).toContain('1 merged · 1 closed without merge')
    expect(body).toContain('#### Outcomes per code repository, last 30 days')
    expect(body).toContain(
      'counts once for each of them, so the rows can add up to more than the total'
    )
    expect(body).toContain(
      '| [acme/api](https://github.com/acme/api) | 1 | 0 | 0 | 0 | 0 | 100% (1 of 1 decided) | 100% (1 of 1 merged and read) | 5 hours |'
    )
    expect(body).toContain(
      '| [acme/cli](https://github.com/acme/cli) | 1 | 1 | 0 | 0 | 0 | 50% (1 of 2 decided) | 100% (1 of 1 merged and read) | 5 hours |'
    )
    // acme/web documented nothing: a row of none, so every listed repository is accounted for.
    expect(body).toContain(
      '| [acme/web](https://github.com/acme/web) | 0 | 0 | 0 | 0 | 0 | none decided yet | no merge read yet | no merge yet |'
    )
    expect(problems()).toEqual([])
  })

  it('holds every repository to one max-jobs budget: over it, their merges wait together and the watermarks stay', async () => {
    await firstRun()
    project.merge('acme/api', { title: 'Add retries' })
    const first = await dispatchRun('acme/api', { 'max-jobs': '1/day', fold: 'never' })
    expect(first.outputs.decision).toBe('new-job')
    const marks = project.watermarks()
    project.merge('acme/cli', { title: 'Add --retries' })
    project.merge('acme/web', { title: 'New settings page' })
    const second = await dispatchRun('acme/cli', { 'max-jobs': '1/day', fold: 'never' })
    expect(second.outputs).toMatchObject({ result: 'skipped', decision: 'skip' })
    expect(second.log).toContain('Over budget')
    expect(sim.requests('create')).toHaveLength(1)
    expect(project.watermarks()).toEqual(marks)
    expect(project.ledger()?.waiting?.changes.map(c => c.repo)).toEqual(['acme/cli', 'acme/web'])
    expect(project.dashboards()[0]?.body).toContain(
      '(https://github.com/acme/web/pull/1) New settings page'
    )
    await clock.sleep(DAY + 60_000)
    const third = await run(project.schedule({ 'max-jobs': '1/day', fold: 'never' }))
    expect(third.outputs.decision).toBe('new-job')
    expect(prompts()[1]).toContain('Add --retries')
    expect(prompts()[1]).toContain('New settings page')
    expect(project.ledger()?.waiting).toBeNull()
    expect(problems()).toEqual([])
  })

  it('previews a first install: dry-run with since shows what the window’s merges would produce, and writes nothing', async () => {
    project = new DocsProject(servers, clock.wallNow)
    project.init()
    const old = project.merge('acme/api', {
      title: 'Old change',
      mergedAt: clock.wallNow() - 40 * DAY
    })
    project.merge('acme/api', { title: 'Recent API change', mergedAt: clock.wallNow() - 3 * DAY })
    project.merge('acme/cli', { title: 'Recent CLI change', mergedAt: clock.wallNow() - DAY })
    const preview = await run(project.schedule({ 'dry-run': 'true', since: '30d' }))
    expect(preview.code).toBe(0)
    expect(preview.outputs).toMatchObject({ result: 'dry-run', decision: 'new-job' })
    expect(preview.outputs.prompt).toContain('Recent API change')
    expect(preview.outputs.prompt).toContain('Recent CLI change')
    expect(preview.outputs.prompt).not.toContain(old.title as string)
    expect(preview.summary).toContain('Recent CLI change')
    expect(preview.log).toContain(
      'Preview (dry-run): 2 changes from 2 code repositories would go to one new job, about 180 credits'
    )
    expect(project.dashboards()).toEqual([])
    expect(gh.requests.filter(r => r.method !== 'GET' && !r.path.endsWith('/graphql'))).toEqual([])
    expect(sim.requests('create')).toHaveLength(0)
    expect(problems()).toEqual([])
  })

  it('runs examples/docs-project.yml as written, on the dispatch examples/code-repository-dispatch.yml sends', async () => {
    await firstRun()
    type Step = {
      id?: string
      uses?: string
      with?: Record<string, string>
      env?: Record<string, string>
      run?: string
    }
    type Workflow = {
      on: Record<string, { types?: string[] }>
      jobs: Record<string, { steps: Step[] }>
    }
    const example = (name: string): Workflow =>
      parse(readFileSync(path.join(ROOT, 'examples', name), 'utf8')) as Workflow
    // The code repository's step, as the runner runs it for acme/api at its merge commit.
    const merged = project.merge('acme/api', {
      title: 'Add retries',
      files: [{ filename: 'src/retry.ts' }]
    })
    project.merge('acme/web', { title: 'Fix the README', files: [{ filename: 'README.md' }] })
    const sender = Object.values(example('code-repository-dispatch.yml').jobs)[0]?.steps.find(
      s => s.run
    )
    const context = {
      github: { repository: 'acme/api', repository_owner: 'acme', sha: merged.mergeCommit },
      steps: { docs: { outputs: { token: 'ghs_app' } } }
    }
    const env = Object.fromEntries(
      Object.entries(sender?.env ?? {}).map(([k, v]) => [k, interpolate(v, context)])
    )
    // `gh api … -f key=value`: the fields, with client_payload[…] as an object, as gh sends them.
    const command = (sender?.run ?? '')
      .replace(/\\\n/g, ' ')
      .replace(/\$(\w+)/g, (_m, name: string) => env[name] ?? '')
    const target = /gh api "repos\/([^"]+)\/dispatches"/.exec(command)?.[1]
    const body: { event_type?: string; client_payload: Record<string, string> } = {
      client_payload: {}
    }
    for (const [, key, value] of command.matchAll(/-f "?([\w[\]]+)=([^"\s]*)"?/g)) {
      const nested = /^client_payload\[(\w+)\]$/.exec(key as string)?.[1]
      if (nested) body.client_payload[nested] = value as string
      else if (key === 'event_type') body.event_type = value
    }
    expect(target).toBe(DOCS)
    expect(body).toEqual({
      event_type: 'docs-agent',
      client_payload: { repository: 'acme/api', sha: merged.mergeCommit }
    })
    const validator = await gitHubValidator()
    expect(
      validator.problems({
        method: 'POST',
        path: `/repos/${DOCS}/dispatches`,
        query: {},
        body,
        status: 204,
        responseBody: null
      })
    ).toEqual([])
    // The docs repository's workflow takes that type, and its agent step runs with its inputs.
    const docs = example('docs-project.yml')
    expect(docs.on.repository_dispatch?.types).toEqual([body.event_type])
    const agent = Object.values(docs.jobs)[0]?.steps.find(s => s.uses?.startsWith('mintlify/'))
    const CODE_TOKEN = 'ghs_docs_project_app_token'
    const inputs = Object.fromEntries(
      Object.entries(agent?.with ?? {}).map(([k, v]) => [
        k,
        interpolate(String(v), {
          secrets: { MINTLIFY_API_KEY: SIM_API_KEY },
          vars: { MINTLIFY_PROJECT_ID: SIM_PROJECT },
          steps: {
            code: { outputs: { token: CODE_TOKEN } },
            docs: { outputs: { token: DOCS_TOKEN } }
          }
        })
      ])
    )
    for (const repo of project.repositories) gh.privateRepos.set(repo, new Set([CODE_TOKEN]))
    const payload = project.dispatch(
      body.client_payload.repository as string,
      body.client_payload.sha
    )
    // Its policy file, examples/docs-agent-project.yml, holds the one list of repositories.
    gh.setFile(
      DOCS,
      '.github/docs-agent.yml',
      readFileSync(path.join(ROOT, 'examples', 'docs-agent-project.yml'), 'utf8')
    )
    const step = project.step({ ...payload, action: body.event_type })
    const result = await run({
      ...step,
      // What the runner adds: github-token's default; the simulator's URL for the service's.
      inputs: {
        'api-url': step.inputs['api-url'] as string,
        'github-token': step.inputs['github-token'] as string,
        ...inputs
      },
      asGiven: true
    } as RunOptions)
    expect(result.log).not.toContain('::error::')
    expect(result.outputs).toMatchObject({ result: 'pr-opened', decision: 'new-job' })
    expect(prompts()[0]).toContain('Add retries')
    // acme/web's own globs (app/**) leave its README change out.
    expect(prompts()[0]).not.toContain('Fix the README')
    expect(result.summary).toContain('Fix the README')
    expect(problems()).toEqual([])
  })

  it('takes a repository’s backlog beyond one run’s bounds oldest first, its watermark moving only as far as the prompt went', async () => {
    await firstRun()
    const pulls = Array.from({ length: 30 }, (_, i) =>
      project.merge('acme/api', { title: `Backlog ${String(i + 1).padStart(2, '0')}` })
    )
    const cli = project.merge('acme/cli', { title: 'Add --retries' })
    const first = await run(project.schedule())
    expect(first.outputs.decision).toBe('new-job')
    expect(prompts()[0]).toContain('Backlog 01')
    expect(prompts()[0]).toContain('Add --retries')
    expect(prompts()[0]).not.toContain('Backlog 30')
    const mark = project.watermarks()['acme/api']
    const taken = pulls.findIndex(p => p.mergeCommit === mark)
    expect(taken).toBeGreaterThanOrEqual(0)
    expect(taken).toBeLessThan(29)
    expect(prompts()[0]).toContain(`Backlog ${String(taken + 1).padStart(2, '0')}`)
    expect(prompts()[0]).not.toContain(`Backlog ${String(taken + 2).padStart(2, '0')}`)
    expect(project.watermarks()['acme/cli']).toBe(cli.mergeCommit)
    expect(project.ledger()?.backlog).toBe(29 - taken)
    docsPull(first.outputs.prLink, 'merged')
    const second = await run(project.schedule())
    expect(second.outputs.decision).toBe('new-job')
    expect(prompts()[1]).toContain(`Backlog ${String(taken + 2).padStart(2, '0')}`)
    expect(prompts()[1]).toContain('Backlog 30')
    expect(prompts()[1]).not.toContain('Add --retries')
    expect(project.watermarks()['acme/api']).toBe(pulls[29]?.mergeCommit)
    expect(problems()).toEqual([])
  })

  it('sends an uncertain request’s changes again, from each repository, when a writer ticks its box; no watermark moves', async () => {
    await firstRun()
    gh.permissions.set('alice', { permission: 'write', role_name: 'write' })
    project.merge('acme/api', { title: 'Add retries' })
    project.merge('acme/web', { title: 'New settings page' })
    sim.inject({ route: 'create', kind: 'status', status: 500, body: { error: 'internal' } })
    const first = await dispatchRun('acme/api')
    expect(first.code).toBe(1)
    const marks = project.watermarks()
    expect(project.ledger()?.uncertain[0]?.changes.map(c => c.repo)).toEqual([
      'acme/api',
      'acme/web'
    ])
    const resent = await tickBox('Send these changes again', 'alice')
    expect(resent.outputs).toMatchObject({ result: 'pr-opened', decision: 'new-job' })
    expect(prompts()).toHaveLength(2)
    expect(prompts()[1]).toContain('=== Repository: acme/api ===')
    expect(prompts()[1]).toContain('Add retries')
    expect(prompts()[1]).toContain('New settings page')
    expect(project.ledger()?.uncertain).toEqual([])
    expect(project.watermarks()).toEqual(marks)
    expect(problems()).toEqual([])
  })

  it('approval: dashboard holds every repository’s merges in one box, later merges joining it; a writer’s tick starts them once', async () => {
    await firstRun()
    gh.permissions.set('alice', { permission: 'write', role_name: 'write' })
    const gated = { approval: 'dashboard' }
    project.merge('acme/api', { title: 'Add retries' })
    project.merge('acme/cli', { title: 'Add --retries' })
    const marks = project.watermarks()
    const held = await dispatchRun('acme/api', gated)
    expect(held.outputs).toMatchObject({ result: 'waiting', decision: 'skip' })
    project.merge('acme/web', { title: 'New settings page' })
    const joined = await dispatchRun('acme/web', gated)
    expect(joined.outputs.result).toBe('waiting')
    expect(sim.requests('create')).toHaveLength(0)
    expect(project.watermarks()).toEqual(marks)
    expect(project.ledger()?.waiting?.changes.map(c => c.repo)).toEqual([
      'acme/api',
      'acme/cli',
      'acme/web'
    ])
    const body = project.dashboards()[0]?.body ?? ''
    expect(body.match(/- \[ \] Start the agent for these changes/g)).toHaveLength(1)
    const started = await tickBox('Start the agent for these changes', 'alice', gated)
    expect(started.outputs).toMatchObject({ result: 'pr-opened', decision: 'new-job' })
    expect(prompts()).toHaveLength(1)
    for (const title of ['Add retries', 'Add --retries', 'New settings page'])
      expect(prompts()[0]).toContain(title)
    expect(project.watermarks()).toEqual({
      'acme/api': gh.headOf('acme/api'),
      'acme/cli': gh.headOf('acme/cli'),
      'acme/web': gh.headOf('acme/web')
    })
    expect(project.ledger()?.waiting).toBeNull()
    expect(problems()).toEqual([])
  })

  it('reviewers: authors asks the authors from every repository who can read the docs repository', async () => {
    await firstRun()
    // The agent's docs pull requests, as the simulator numbers them (100 + its jobs so far, which
    // the tests before this one created: room for a hundred).
    for (let n = 100; n < 200; n++)
      gh.addPull(DOCS, {
        number: n,
        state: 'open',
        merged: false,
        user: { login: 'mintlify[bot]', type: 'Bot' }
      })
    gh.permissions.set('alice', { permission: 'write', role_name: 'write' })
    gh.permissions.set('bob', { permission: 'read', role_name: 'read' })
    gh.permissions.set('dave', { permission: 'none', role_name: 'none' })
    const person = (login: string) => ({ user: { login, type: 'User' as const } })
    project.merge('acme/api', { title: 'Add retries', ...person('alice') })
    project.merge('acme/cli', { title: 'Add --retries', ...person('bob') })
    project.merge('acme/web', { title: 'New settings page', ...person('dave') })
    const result = await dispatchRun('acme/cli', { 'docs-token': DOCS_TOKEN, reviewers: 'authors' })
    expect(result.outputs.result).toBe('pr-opened')
    const docs = gh.pulls.get(`${DOCS}#${String(result.outputs.prLink).split('/').pop()}`)
    expect(docs?.requestedReviewers).toEqual(['alice', 'bob'])
    expect(problems()).toEqual([])
  })

  it('include-diff: the excerpt holds each repository’s patches, named by repository', async () => {
    await firstRun()
    project.merge('acme/api', {
      title: 'Add retries',
      files: [{ filename: 'src/retry.ts', patch: '@@ -0,0 +1 @@\n+export const retries = 3' }]
    })
    project.merge('acme/cli', {
      title: 'Add --retries',
      files: [{ filename: 'cmd/run.go', patch: '@@ -1 +1 @@\n+flag.Int("retries", 3)' }]
    })
    const result = await dispatchRun('acme/api', { 'include-diff': 'true' })
    expect(result.outputs.decision).toBe('new-job')
    expect(prompts()[0]).toContain(
      'diff acme/api: src/retry.ts\n@@ -0,0 +1 @@\n+export const retries = 3'
    )
    expect(prompts()[0]).toContain('diff acme/cli: cmd/run.go')
    // Each repository's patches through its own path: GitHub's route for that repository.
    expect(gh.requests.some(r => r.path === '/repos/acme/cli/pulls/1/files')).toBe(true)
    expect(problems()).toEqual([])
  })

  it('a repository whose changes fail to read is a warning; its watermark stays and the others go on', async () => {
    await firstRun()
    project.merge('acme/api', { title: 'Add retries' })
    // A commit pushed to acme/cli without a pull request: its files come from REST, which fails.
    gh.commitTo('acme/cli', { message: 'Hotfix the parser', files: [{ filename: 'src/p.ts' }] })
    const cliMark = project.watermarks()['acme/cli']
    gh.failures.set('commit', 500)
    // acme/web emptied: GitHub names no default branch for it.
    const web = gh.branches.get('acme/web:main') ?? []
    gh.branches.delete('acme/web:main')
    const result = await dispatchRun('acme/api')
    expect(result.code).toBe(0)
    expect(result.log).toContain(
      '::warning::Could not read acme/web (GitHub named no default branch): the other code repositories go on.'
    )
    gh.branches.set('acme/web:main', web)
    expect(result.log).toContain(
      '::warning::Could not read acme/cli (HTTP 500): the other code repositories go on. Its changes wait for the next run.'
    )
    expect(prompts()[0]).toContain('Add retries')
    expect(prompts()[0]).not.toContain('Hotfix the parser')
    expect(project.watermarks()['acme/cli']).toBe(cliMark)
    gh.failures.clear()
    docsPull(result.outputs.prLink, 'merged')
    await run(project.schedule())
    expect(prompts()[1]).toContain('Hotfix the parser')
    expect(problems()).toEqual([])
  })

  it('keeps the loop guard with docs-token an App (`<slug>[bot]`) and github-token GITHUB_TOKEN: only the App’s merges are its own', async () => {
    await firstRun()
    // The suite's identities: docs-token is DOCS_APP, github-token github-actions[bot].
    project.merge('acme/api', { title: 'Sync the docs snippets', user: DOCS_APP })
    project.merge('acme/cli', {
      title: 'Regenerate the client',
      user: { login: 'github-actions[bot]', type: 'Bot' }
    })
    project.merge('acme/web', { title: 'Add retries' })
    const result = await dispatchRun('acme/web', {
      'docs-token': DOCS_TOKEN,
      'allowed-bots': 'github-actions'
    })
    expect(result.outputs.decision).toBe('new-job')
    // GitHub's GraphQL names the App `acme-docs-writer`, its REST `acme-docs-writer[bot]`: the same.
    expect(prompts()[0]).not.toContain('Sync the docs snippets')
    expect(result.summary.replace(/\\#\u200b/g, '#')).toMatch(
      /Sync the docs snippets: #1 is by @\u200bacme-docs-writer\\\[bot\\\], the identity of 'docs-token'/
    )
    // github-token's identity is another account: its merge is a bot's that 'allowed-bots' lets in.
    expect(prompts()[0]).toContain('Regenerate the client')
    expect(prompts()[0]).toContain('Add retries')
    expect(problems()).toEqual([])
  })

  it('keeps the loop guard across repositories: the agent’s and docs-token’s own merges are left out, with the reason', async () => {
    await firstRun()
    gh.tokenUsers.set(DOCS_TOKEN, { login: 'docs-writer', type: 'User' })
    project.merge('acme/api', { title: 'Add retries' })
    project.merge('acme/cli', {
      title: 'Sync the docs snippets',
      user: { login: 'docs-writer', type: 'User' }
    })
    project.merge('acme/web', {
      title: 'Docs agent change',
      user: { login: 'mintlify[bot]', type: 'Bot' }
    })
    const result = await dispatchRun('acme/api', { 'docs-token': DOCS_TOKEN })
    expect(result.outputs.decision).toBe('new-job')
    expect(prompts()[0]).toContain('Add retries')
    expect(prompts()[0]).not.toContain('Sync the docs snippets')
    expect(prompts()[0]).not.toContain('Docs agent change')
    // The summary names each change's repository, those handed over and those left out.
    const named = result.summary.replace(/\\#\u200b/g, '#')
    expect(named).toContain('- [acme/api#1](https://github.com/acme/api/pull/1) Add retries')
    expect(named).toMatch(
      /- \[acme\/cli#1\]\(https:\/\/github\.com\/acme\/cli\/pull\/1\) Sync the docs snippets: .*the identity of 'docs-token'/
    )
    expect(named).toMatch(
      /- \[acme\/web#1\]\(https:\/\/github\.com\/acme\/web\/pull\/1\) Docs agent change: .*the docs agent itself/
    )
    // Their repositories' watermarks move past them all the same: they are never documented.
    expect(project.watermarks()['acme/cli']).toBe(gh.headOf('acme/cli'))
    expect(project.watermarks()['acme/web']).toBe(gh.headOf('acme/web'))
    expect(problems()).toEqual([])
  })
})

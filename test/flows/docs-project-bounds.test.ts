import { describe, expect, it } from 'vitest'
import type { FakeGitHub, FakePull } from '../simulator/fake-github.js'
import type { Simulator } from '../simulator/server.js'
import type { CodeChangeServers } from '../support/code-change-runs.js'
import { codeChangeSuite } from '../support/code-change-suite.js'
import { DocsProject } from '../support/docs-project-runs.js'
import type { RunOptions, RunResult } from '../support/run-action.js'
import { runInProcess } from '../support/run-in-process.js'
import { VirtualClock } from '../support/virtual-clock.js'

// A docs project at its bounds: many repositories, a long batch, a rewritten history, a resend
// while one repository is out of reach. In-process against the simulator and the fake GitHub,
// every GitHub call checked against GitHub's OpenAPI description.
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

/** GitHub calls its OpenAPI description refuses, but GraphQL's NOT_FOUND the fake gives on purpose. */
const problems = (): string[] =>
  suite.problems().filter(p => !p.includes('Could not resolve to a Repository'))
const run = (step: RunOptions): Promise<RunResult> => runInProcess({ clock, ...step })
const prompts = (route?: 'create' | 'message'): string[] => project.prompts(route)
const allPrompts = (): string[] => project.allPrompts()
/** How many prompts name `text`. */
const sentTimes = (text: string): number => allPrompts().filter(p => p.includes(text)).length
/** The docs pull request of a job, as GitHub shows it in the docs repository. */
const docsPull = (link: unknown, state: 'open' | 'merged'): FakePull =>
  project.docsPull(link, state)
const dispatchRun = (repo: string, inputs: Record<string, string> = {}, sha?: string) =>
  run(project.step(project.dispatch(repo, sha), inputs))

/** `login` ticks the first box of the dashboard that `box` names, and the run of that edit. */
const tickBox = (box: string, login: string, inputs: Record<string, string> = {}) =>
  run(project.tick(box, login, inputs))

/** A first run of the project: each repository's head recorded, nothing started. */
async function firstRun(repositories?: string[]): Promise<void> {
  project = new DocsProject(servers, clock.wallNow, repositories)
  project.init()
  expect((await run(project.schedule())).code).toBe(0)
}

describe('a docs project at its bounds', () => {
  it('documents a repository added to a list of 50 after another left it: the one that left keeps its watermark, marked as left, for its return', async () => {
    const fifty = Array.from({ length: 50 }, (_, i) => `acme/r${i + 1}`)
    await firstRun(fifty)
    expect(Object.keys(project.watermarks())).toHaveLength(50)
    // acme/r1 leaves the project; acme/new joins it.
    project = new DocsProject(servers, clock.wallNow, [...fifty.slice(1), 'acme/new'])
    gh.commitTo('acme/new', { message: 'Initial commit of acme/new' })
    expect((await run(project.schedule())).code).toBe(0)
    expect(project.watermarks()['acme/new']).toBe(gh.headOf('acme/new'))
    expect(project.ledger()?.repositories?.['acme/r1']?.left).toBeGreaterThan(0)
    expect(
      Object.values(project.ledger()?.repositories ?? {}).filter(m => m.left === undefined)
    ).toHaveLength(50)
    project.merge('acme/new', { title: 'New repository feature' })
    const second = await run(project.schedule())
    expect(second.code).toBe(0)
    expect(sentTimes('New repository feature')).toBe(1)
    expect(problems()).toEqual([])
  })

  it('reads 50 code repositories with one code-token over one client: a few connections to GitHub, not one pool per repository', async () => {
    const fifty = Array.from({ length: 50 }, (_, i) => `acme/r${i + 1}`)
    await firstRun(fifty)
    for (const repo of fifty) project.merge(repo, { title: `Feature of ${repo}` })
    gh.connections = 0
    const reads = gh.requests.length
    const result = await run(project.schedule({ 'code-token': 'ghs_code' }))
    expect(result.code).toBe(0)
    const codeReads = gh.requests.slice(reads).filter(r => r.authorization === 'token ghs_code')
    expect(codeReads.length).toBeGreaterThan(50)
    // One client per token (github-token's and code-token's), each keeping its connection alive:
    // a client per repository opened at least one connection each.
    expect(gh.connections).toBeLessThanOrEqual(4)
    expect(problems()).toEqual([])
  })

  it('moves each watermark only as far as the prompt described its changes; the next run takes the rest', async () => {
    await firstRun()
    const body = 'Long description. '.repeat(600)
    const titles: string[] = []
    for (const repo of ['acme/api', 'acme/cli', 'acme/web'])
      for (let i = 0; i < 12; i++) {
        const title = `${repo} feature ${String(i).padStart(2, '0')}`
        titles.push(title)
        project.merge(repo, { title, body })
      }
    const first = await run(project.schedule())
    expect(first.outputs.decision).toBe('new-job')
    const prompt = prompts()[0] ?? ''
    const missing = titles.filter(t => !prompt.includes(t))
    // The 32 KB description cannot hold 36 long pull requests: the newest wait.
    expect(missing.length).toBeGreaterThan(0)
    expect(prompt).toContain('newer changes beyond what one prompt holds')
    expect(project.ledger()?.backlog).toBe(missing.length)
    expect(project.watermarks()).not.toEqual({
      'acme/api': gh.headOf('acme/api'),
      'acme/cli': gh.headOf('acme/cli'),
      'acme/web': gh.headOf('acme/web')
    })
    for (let i = 0; i < 5 && allPrompts().length < 6; i++) {
      docsPull(project.ledger()?.jobs.at(-1)?.prLink, 'merged')
      expect((await run(project.schedule())).code).toBe(0)
    }
    // Every change described once, none twice.
    for (const title of titles) expect(sentTimes(title), title).toBe(1)
    expect(project.ledger()?.backlog).toBeUndefined()
    expect(problems()).toEqual([])
  })

  it('keeps an uncertain batch of 250 changes within GitHub’s 65,536 characters, counting those it does not keep', async () => {
    const ten = Array.from({ length: 10 }, (_, i) => `acme/repository-${i + 1}`)
    await firstRun(ten)
    const long = 'a long and descriptive pull request title '.repeat(3)
    for (const repo of ten)
      for (let i = 0; i < 25; i++) project.merge(repo, { title: `${repo}: ${long} ${i}` })
    sim.inject({ route: 'create', kind: 'status', status: 500, body: { error: 'internal' } })
    const failed = await run(project.schedule())
    expect(failed.code).toBe(1)
    // The fake GitHub refuses a longer body with GitHub's 422: the dashboard was written.
    const body = project.dashboards()[0]?.body ?? ''
    expect(body.length).toBeLessThanOrEqual(65_536)
    const entry = project.ledger()?.uncertain[0]
    expect(entry?.changes.length).toBeLessThanOrEqual(50)
    expect((entry?.changes.length ?? 0) + (entry?.moreChanges ?? 0)).toBe(
      project.ledger()?.runs.at(-1)?.changes
    )
    expect(body).toContain('were not kept: send them with a prompt')
    expect(problems()).toEqual([])
  })

  it('a resend while one repository cannot be read keeps that repository’s changes in the entry, under a new box, and sends them later', async () => {
    await firstRun()
    gh.permissions.set('alice', { permission: 'write', role_name: 'write' })
    project.merge('acme/api', { title: 'Add retries' })
    project.merge('acme/web', { title: 'New settings page' })
    sim.inject({ route: 'create', kind: 'status', status: 500, body: { error: 'internal' } })
    expect((await dispatchRun('acme/api')).code).toBe(1)
    const before = project.ledger()?.uncertain[0]
    expect(before?.changes.map(c => c.repo)).toEqual(['acme/api', 'acme/web'])
    gh.hiddenRepos.add('acme/web')
    const resent = await tickBox('Send these changes again', 'alice')
    expect(resent.log).toContain('Could not read acme/web')
    expect(allPrompts().at(-1)).toContain('Add retries')
    expect(allPrompts().at(-1)).not.toContain('New settings page')
    const kept = project.ledger()?.uncertain ?? []
    expect(kept.map(u => u.changes.map(c => c.repo))).toEqual([['acme/web']])
    expect(kept[0]?.id).not.toBe(before?.id)
    expect(project.dashboards()[0]?.body).not.toContain('- [x] Send these changes again')
    gh.hiddenRepos.clear()
    await tickBox('Send these changes again', 'alice')
    expect(sentTimes('New settings page')).toBe(2)
    expect(sentTimes('Add retries')).toBe(2)
    expect(project.ledger()?.uncertain).toEqual([])
  })

  it('since with approval: a first look whose batch waits records the commit before the window, and the tick days later sends the merge the window has left', async () => {
    project = new DocsProject(servers, clock.wallNow)
    project.init()
    gh.permissions.set('alice', { permission: 'write', role_name: 'write' })
    const gated = { approval: 'dashboard', since: '2d' }
    const before = gh.headOf('acme/api')
    const early = project.merge('acme/api', {
      title: 'Early API change',
      mergedAt: clock.wallNow() - DAY
    })
    const held = await run(project.schedule(gated))
    expect(held.outputs.result).toBe('waiting')
    expect(project.ledger()?.waiting?.changes.map(c => c.sha)).toContain(early.mergeCommit)
    // The window's start, not its head: the waiting merge is after it.
    expect(project.watermarks()['acme/api']).toBe(before)
    await clock.sleep(2 * DAY)
    const started = await tickBox('Start the agent for these changes', 'alice', gated)
    expect(started.code).toBe(0)
    expect(sentTimes('Early API change')).toBe(1)
    expect(project.watermarks()['acme/api']).toBe(early.mergeCommit)
    expect(problems()).toEqual([])
  })

  it('after a force-push in one repository, reads its merges since its watermark was recorded, leaving out those documented already', async () => {
    await firstRun()
    await clock.sleep(60_000)
    const documented = project.merge('acme/api', { title: 'Add retries' })
    await dispatchRun('acme/api', {}, documented.mergeCommit)
    expect(project.watermarks()['acme/api']).toBe(documented.mergeCommit)
    await clock.sleep(60_000)
    // Force-push: main rewritten without the documented merge, then two merges.
    gh.branches.get('acme/api:main')?.pop()
    project.merge('acme/api', { title: 'After rewrite one' })
    project.merge('acme/api', { title: 'After rewrite two' })
    const next = await run(project.schedule())
    expect(next.code).toBe(0)
    expect(next.log).toContain('the history was rewritten, by a force-push')
    expect(sentTimes('After rewrite one')).toBe(1)
    expect(sentTimes('After rewrite two')).toBe(1)
    expect(sentTimes('Add retries')).toBe(1)
    expect(project.watermarks()['acme/api']).toBe(gh.headOf('acme/api'))
    expect(problems()).toEqual([])
  })

  it('include-diff: a repository whose patches cannot be read is a warning naming it and code-token; its changes and the others’ patches go on', async () => {
    await firstRun()
    project.merge('acme/api', {
      title: 'Add retries',
      files: [{ filename: 'src/retry.ts', patch: '@@ -0,0 +1 @@\n+retryPatchLine' }]
    })
    project.merge('acme/cli', {
      title: 'Add --retries',
      files: [{ filename: 'cmd/run.go', patch: '@@ -1 +1 @@\n+cliPatchLine' }]
    })
    gh.failures.set('pull-files', { status: 403, times: 1 })
    const result = await dispatchRun('acme/api', {
      'include-diff': 'true',
      'code-token': 'ghs_code'
    })
    expect(result.code).toBe(0)
    expect(result.log).toContain('::warning::Could not read the patches of acme/api')
    expect(result.log).toContain("Give 'code-token' contents: read")
    const prompt = allPrompts().at(-1) ?? ''
    expect(prompt).toContain('Add retries')
    expect(prompt).toContain('Add --retries')
    expect(prompt).toContain('cliPatchLine')
    expect(prompt).not.toContain('retryPatchLine')
    expect(problems()).toEqual([])
  })

  it('previews a window beyond one run: its total, the runs its backlog needs and their credits', async () => {
    project = new DocsProject(servers, clock.wallNow)
    project.init()
    for (let i = 0; i < 30; i++)
      project.merge('acme/api', {
        title: `Window ${i}`,
        mergedAt: clock.wallNow() - 5 * DAY + i * 1000
      })
    const preview = await run(project.schedule({ 'dry-run': 'true', since: '30d' }))
    expect(preview.code).toBe(0)
    expect(preview.log).toContain(
      'Preview (dry-run): the window holds 30 changes, more than one run takes. The first run would send 25 changes from 1 code repository to one new job; the other 5 changes need about 1 more run'
    )
    expect(preview.log).toContain('about 360 credits in all (2 × 180')
    const real = await run(project.schedule({ since: '30d' }))
    expect(real.outputs.decision).toBe('new-job')
    expect(project.ledger()?.backlog).toBe(5)
    expect(problems()).toEqual([])
  })

  it('two uncertain requests sent again at once beyond one prompt: what it had no room for stays under a new box, and the next tick sends it', async () => {
    await firstRun()
    gh.permissions.set('alice', { permission: 'write', role_name: 'write' })
    const body = 'Long description. '.repeat(600)
    const titles: string[] = []
    for (const repo of ['acme/api', 'acme/cli']) {
      for (let i = 0; i < 18; i++) {
        const title = `${repo} resent ${String(i).padStart(2, '0')}`
        titles.push(title)
        project.merge(repo, { title, body })
      }
      sim.inject({ route: 'create', kind: 'status', status: 500, body: { error: 'internal' } })
      expect((await run(project.schedule())).code).toBe(1)
    }
    expect(project.ledger()?.uncertain).toHaveLength(2)
    const uncertainIn = (): number =>
      (project.ledger()?.uncertain ?? []).reduce((n, u) => n + u.changes.length, 0)
    const held = uncertainIn()
    // A writer ticks both boxes in one edit.
    const dashboard = project.dashboards()[0]
    if (!dashboard) throw new Error('no dashboard')
    const before = dashboard.body
    dashboard.body = before.replaceAll(
      '- [ ] Send these changes again',
      '- [x] Send these changes again'
    )
    const both = await run(
      project.step(
        {
          action: 'edited',
          issue: gh.issueView(dashboard, 'acme/docs'),
          changes: { body: { from: before } },
          repository: { full_name: 'acme/docs', default_branch: 'main' },
          sender: { login: 'alice', type: 'User' }
        },
        {},
        'issues'
      )
    )
    expect(both.code).toBe(0)
    const sent = titles.filter(t => allPrompts().at(-1)?.includes(t))
    expect(sent.length).toBeGreaterThan(0)
    expect(sent.length).toBeLessThan(held)
    expect(uncertainIn()).toBe(held - sent.length)
    while ((project.ledger()?.uncertain.length ?? 0) > 0 && allPrompts().length < 8)
      expect((await tickBox('Send these changes again', 'alice')).code).toBe(0)
    // Every change the uncertain requests held went out again once.
    for (const title of titles.filter(
      t => allPrompts()[0]?.includes(t) || allPrompts()[1]?.includes(t)
    ))
      expect(
        allPrompts()
          .slice(2)
          .filter(p => p.includes(title)),
        title
      ).toHaveLength(1)
    expect(problems()).toEqual([])
  })

  it('documents 60 long commits pushed straight to one repository once each, over as many runs as it takes, its watermark never passing one no prompt described', async () => {
    await firstRun()
    const detail = (n: number): string =>
      `Detail of change ${n} that a reader may need. `.repeat(22)
    const commits = Array.from({ length: 60 }, (_, i) =>
      gh.commitTo('acme/api', {
        message: `Direct change ${String(i + 1).padStart(2, '0')}\n\n${detail(i + 1)}`,
        author: { login: 'alice' },
        files: [{ filename: `src/direct${i + 1}.ts`, additions: 3 }]
      })
    )
    const cli = project.merge('acme/cli', { title: 'Add --retries' })
    const described = (prompt: string): number[] =>
      [...prompt.matchAll(/: Direct change (\d\d)\n/g)].map(m => Number(m[1]))
    const first = await run(project.schedule({ fold: 'never' }))
    expect(first.outputs.decision).toBe('new-job')
    const taken = described(prompts()[0] ?? '')
    expect(taken.length).toBeGreaterThan(10)
    expect(taken.length).toBeLessThan(60)
    expect(prompts()[0]).not.toContain('and those after it')
    expect(project.watermarks()['acme/api']).toBe(commits[taken.length - 1]?.sha)
    for (let i = 0; i < 4 && project.watermarks()['acme/api'] !== gh.headOf('acme/api'); i++)
      expect((await run(project.schedule({ fold: 'never' }))).log).not.toContain('::error::')
    expect(project.watermarks()['acme/api']).toBe(gh.headOf('acme/api'))
    expect(project.watermarks()['acme/cli']).toBe(cli.mergeCommit)
    expect(allPrompts().flatMap(described)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1))
    expect(sentTimes('Add --retries')).toBe(1)
    expect(problems()).toEqual([])
  })
})

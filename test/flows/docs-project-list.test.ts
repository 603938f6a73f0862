import { describe, expect, it } from 'vitest'
import type { FakeGitHub } from '../simulator/fake-github.js'
import type { CodeChangeServers } from '../support/code-change-runs.js'
import { codeChangeSuite } from '../support/code-change-suite.js'
import { DocsProject } from '../support/docs-project-runs.js'
import type { RunOptions, RunResult } from '../support/run-action.js'
import { runInProcess } from '../support/run-in-process.js'
import { VirtualClock } from '../support/virtual-clock.js'

// A docs project whose list of code repositories changes: a repository that leaves and comes
// back, one renamed on GitHub, one out of reach until access comes. Nothing documented is sent
// again, and nothing merged meanwhile is lost. In-process against the simulator and the fake
// GitHub (which redirects and follows renamed repositories as GitHub does).
const MINUTE = 60_000
const clock = new VirtualClock()
let servers: CodeChangeServers
let gh: FakeGitHub
let project: DocsProject
const suite = codeChangeSuite(clock, world => {
  servers = world
  gh = world.gh
})

/** GitHub calls its OpenAPI description refuses, but GraphQL's NOT_FOUND the fake gives on purpose. */
const problems = (): string[] =>
  suite.problems().filter(p => !p.includes('Could not resolve to a Repository'))
const run = (step: RunOptions): Promise<RunResult> => runInProcess({ clock, ...step })
/** How many prompts name `text`. */
const sentTimes = (text: string): number =>
  project.allPrompts().filter(p => p.includes(text)).length
async function firstRun(repositories?: string[]): Promise<RunResult> {
  project = new DocsProject(servers, clock.wallNow, repositories)
  project.init()
  const first = await run(project.schedule())
  expect(first.code).toBe(0)
  return first
}

describe('a docs project whose list changes', () => {
  it('a repository taken out of the list and put back sends nothing documented again, and what it merged meanwhile is sent', async () => {
    await firstRun()
    project.merge('acme/api', { title: 'Documented once' })
    expect((await run(project.schedule())).outputs.decision).toBe('new-job')
    // acme/api leaves the list; a run writes the ledger without it.
    project = project.listing(['acme/cli', 'acme/web'])
    project.merge('acme/cli', { title: 'Add --retries' })
    expect((await run(project.schedule())).outputs.decision).toBe('new-job')
    // Its watermark is kept for its return, not shown among the listed repositories.
    const table = (project.dashboards()[0]?.body ?? '').split('#### Code repositories')[1] ?? ''
    expect(table.split('\n\n####')[0]).toContain('[acme/cli]')
    expect(table.split('\n\n####')[0]).not.toContain('[acme/api]')
    expect(project.ledger()?.repositories?.['acme/api']?.left).toBeGreaterThan(0)
    project.merge('acme/api', { title: 'Merged while not listed' })
    // Back in the list, with a window that reaches the documented merge.
    project = project.listing(['acme/api', 'acme/cli', 'acme/web'])
    const back = await run(project.schedule({ since: '30d' }))
    expect(back.log).not.toContain('::error::')
    expect(back.log).not.toContain('First look at acme/api')
    expect(sentTimes('Documented once')).toBe(1)
    expect(sentTimes('Merged while not listed')).toBe(1)
    expect(project.watermarks()['acme/api']).toBe(gh.headOf('acme/api'))
    expect(problems()).toEqual([])
  })

  it('a renamed repository: GitHub follows its old name, and listed under its new one it goes on from its watermark, its merges since the rename sent', async () => {
    await firstRun()
    project.merge('acme/api', { title: 'Before the rename' })
    expect((await run(project.schedule())).outputs.decision).toBe('new-job')
    gh.rename('acme/api', 'acme/api-server')
    // Still listed under its old name: GitHub's GraphQL follows it, and its REST answers redirect.
    project.merge('acme/api-server', { number: 2, title: 'Right after the rename' })
    gh.commitTo('acme/api-server', {
      message: 'Pushed straight after the rename',
      author: { login: 'alice' },
      files: [{ filename: 'src/renamed.ts', additions: 2 }]
    })
    const old = await run(project.schedule())
    expect(old.log).not.toContain('::error::')
    expect(old.log).toContain(
      "GitHub names acme/api acme/api-server now (renamed): list it as acme/api-server in 'code-repositories'."
    )
    expect(sentTimes('Right after the rename')).toBe(1)
    // The commit's files came through REST's redirect.
    expect(project.allPrompts().at(-1)).toContain('src/renamed.ts')
    expect(
      gh.requests.some(r => r.path.startsWith('/repos/acme/api/commits/') && r.status === 301)
    ).toBe(true)
    // Listed under its new name: no first look; its next merge is sent, nothing again.
    project = project.listing(['acme/api-server', 'acme/cli', 'acme/web'])
    project.merge('acme/api-server', { number: 3, title: 'Under the new name' })
    const renamed = await run(project.schedule())
    expect(renamed.log).not.toContain('First look at acme/api-server')
    expect(sentTimes('Under the new name')).toBe(1)
    expect(sentTimes('Right after the rename')).toBe(1)
    expect(sentTimes('Before the rename')).toBe(1)
    expect(project.watermarks()['acme/api-server']).toBe(gh.headOf('acme/api-server'))
    expect(project.watermarks()['acme/api']).toBeUndefined()
    expect(problems()).toEqual([])
  })

  it('a renamed repository listed under its new name at once: its merges since the rename are sent, not skipped by a first look', async () => {
    await firstRun()
    project.merge('acme/api', { title: 'Before the rename' })
    expect((await run(project.schedule())).outputs.decision).toBe('new-job')
    gh.rename('acme/api', 'acme/api-server')
    project = project.listing(['acme/api-server', 'acme/cli', 'acme/web'])
    project.merge('acme/api-server', { number: 2, title: 'Right after the rename' })
    const result = await run(project.schedule())
    expect(result.log).not.toContain('First look at acme/api-server')
    expect(sentTimes('Right after the rename')).toBe(1)
    expect(sentTimes('Before the rename')).toBe(1)
    expect(problems()).toEqual([])
  })

  it('a renamed repository: changes recorded uncertain under its old name are sent again when the box is ticked', async () => {
    await firstRun()
    gh.permissions.set('alice', { permission: 'write', role_name: 'write' })
    project.merge('acme/api', { title: 'Add retries' })
    servers.sim.inject({
      route: 'create',
      kind: 'status',
      status: 500,
      body: { error: 'internal' }
    })
    expect((await run(project.step(project.dispatch('acme/api')))).code).toBe(1)
    expect(project.ledger()?.uncertain[0]?.changes.map(c => c.repo)).toEqual(['acme/api'])
    gh.rename('acme/api', 'acme/api-server')
    project = project.listing(['acme/api-server', 'acme/cli', 'acme/web'])
    const resent = await run(project.tick('Send these changes again', 'alice'))
    expect(resent.log).not.toContain('None of the changes to send again')
    expect(sentTimes('Add retries')).toBe(2)
    expect(project.ledger()?.uncertain).toEqual([])
    expect(problems()).toEqual([])
  })

  it('a renamed repository whose history is then rewritten: what its jobs sent under its old name is not sent again under its new one', async () => {
    await firstRun()
    clock.advance(MINUTE)
    const documented = project.merge('acme/api', { title: 'Documented before the rename' })
    expect((await run(project.schedule())).outputs.decision).toBe('new-job')
    // The job records the change as acme/api#1; the repository is renamed and listed so.
    gh.rename('acme/api', 'acme/api-server')
    project = project.listing(['acme/api-server', 'acme/cli', 'acme/web'])
    clock.advance(MINUTE)
    // Force-push of a rebase: the documented merge made again (a new sha, committed now), then a merge.
    const dropped = gh.commits.get(gh.branches.get('acme/api-server:main')?.pop() ?? '')
    gh.commitTo('acme/api-server', {
      message: dropped?.message ?? '',
      pulls: dropped?.pulls,
      files: dropped?.files,
      committedAt: clock.wallNow()
    })
    expect(gh.headOf('acme/api-server')).not.toBe(documented.mergeCommit)
    project.merge('acme/api-server', { number: 2, title: 'Merged after the rewrite' })
    const rewritten = await run(project.schedule())
    expect(rewritten.log).toContain('the history was rewritten, by a force-push')
    expect(sentTimes('Merged after the rewrite')).toBe(1)
    expect(sentTimes('Documented before the rename')).toBe(1)
    // Its watermark, now under the new name, keeps the old one for the jobs that name it.
    expect(project.ledger()?.repositories?.['acme/api-server']?.formerly).toEqual(['acme/api'])
    expect(project.ledger()?.repositories?.['acme/api']).toBeUndefined()
    expect(problems()).toEqual([])
  })

  it('a repository out of reach from the start: once it can be read, the merge that waited is sent, as the warning promised', async () => {
    gh.hiddenRepos.add('acme/web')
    const first = await firstRun()
    expect(first.log).toContain('Could not read acme/web')
    expect(first.log).toContain('Its changes wait until a run can read it.')
    clock.advance(MINUTE)
    project.merge('acme/web', { title: 'Merged while out of reach' })
    project.merge('acme/api', { title: 'An api change' })
    expect((await run(project.schedule())).outputs.decision).toBe('new-job')
    expect(sentTimes('Merged while out of reach')).toBe(0)
    // Access comes back.
    gh.hiddenRepos.delete('acme/web')
    const back = await run(project.schedule())
    expect(back.log).not.toContain('First look at acme/web')
    expect(back.log).toContain('acme/web can be read now: its merges since')
    expect(sentTimes('Merged while out of reach')).toBe(1)
    expect(sentTimes('An api change')).toBe(1)
    expect(project.watermarks()['acme/web']).toBe(gh.headOf('acme/web'))
    expect(project.ledger()?.unread).toBeUndefined()
  })
})

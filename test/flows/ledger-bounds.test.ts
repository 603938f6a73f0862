import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { FakeCommit, FakeGitHub } from '../simulator/fake-github.js'
import { SIM_PROJECT, type Simulator } from '../simulator/server.js'
import { APP, type ChangeRun, CodeChangeServers } from '../support/code-change-runs.js'
import type { RunResult } from '../support/run-action.js'
import { runInProcess } from '../support/run-in-process.js'
import { VirtualClock } from '../support/virtual-clock.js'

// Commits pushed straight to the default branch, more than one prompt describes: with the
// dashboard each one reaches a prompt once, over as many runs as it takes; without one, the run
// describes the newest and names what it leaves out.
const clock = new VirtualClock()
let servers: CodeChangeServers
let sim: Simulator
let gh: FakeGitHub
beforeAll(async () => {
  servers = await CodeChangeServers.start({ now: clock.wallNow, projects: [SIM_PROJECT] })
  ;({ sim, gh } = servers)
})
afterAll(() => servers.close())
beforeEach(() => servers.reset())

const run = (r: ChangeRun): Promise<RunResult> => {
  servers.runId++
  return runInProcess({ clock, ...servers.step(r) })
}
const allPrompts = (): string[] =>
  [...sim.requests('create'), ...sim.requests('message')].map(
    e => (e.requestBody as { prompt: string }).prompt
  )
/** A commit message of about 1 KB: the prompt's cap holds about 30 of them. */
const longMessage = (n: number): string =>
  `Direct change ${String(n).padStart(2, '0')}\n\n${`Detail of change ${n} that a reader may need. `.repeat(22)}`
/** `count` commits pushed to main without a pull request, oldest first. */
const pushDirect = (count: number): FakeCommit[] =>
  Array.from({ length: count }, (_, i) =>
    gh.commitTo(APP, {
      message: longMessage(i + 1),
      author: { login: 'alice' },
      files: [{ filename: `src/direct${i + 1}.ts`, additions: 3 }]
    })
  )
/** Which of the direct changes the prompt holds, by number. */
const described = (prompt: string): number[] =>
  [...prompt.matchAll(/: Direct change (\d\d)\n/g)].map(m => Number(m[1]))

describe('direct commits beyond one prompt', () => {
  it('with the dashboard, documents each of 60 long commits once, the last documented commit never passing one no prompt described', async () => {
    const start = gh.commitTo(APP, { message: 'Initial commit' })
    const first = await run({
      eventName: 'push',
      event: servers.push('refs/heads/main', '0'.repeat(40), start.sha, { created: true })
    })
    expect(first.code).toBe(0)
    const commits = pushDirect(60)
    const head = commits[59] as FakeCommit
    const pushed = await run({
      eventName: 'push',
      event: servers.push('refs/heads/main', start.sha, head.sha),
      inputs: { fold: 'never' }
    })
    expect(pushed.outputs.decision).toBe('new-job')
    const [firstPrompt = ''] = allPrompts().slice(-1)
    const taken = described(firstPrompt)
    expect(taken.length).toBeGreaterThan(10)
    expect(taken.length).toBeLessThan(60)
    expect(taken).toEqual(Array.from({ length: taken.length }, (_, i) => i + 1))
    // The prompt holds every change it was given: nothing "left out … and those after it".
    expect(firstPrompt).not.toContain('and those after it')
    const ledger = servers.ledgerOf()
    expect(ledger?.documented?.sha).toBe(commits[taken.length - 1]?.sha)
    expect(ledger?.backlog).toBe(60 - taken.length)
    // Scheduled catch-ups take the rest, oldest first, until the head is documented.
    for (let i = 0; i < 4 && servers.ledgerOf()?.documented?.sha !== head.sha; i++) {
      const next = await run({
        eventName: 'schedule',
        event: { schedule: '0 6 * * *' },
        inputs: { changes: 'since-last', fold: 'never' }
      })
      expect(next.log).not.toContain('::error::')
    }
    expect(servers.ledgerOf()?.documented?.sha).toBe(head.sha)
    expect(servers.ledgerOf()?.backlog).toBeUndefined()
    const all = allPrompts().flatMap(described)
    expect(all).toEqual(Array.from({ length: 60 }, (_, i) => i + 1))
  })

  it('without the dashboard, a push of 400 commits describes the newest and names what it leaves out', async () => {
    const start = gh.commitTo(APP, { message: 'Initial commit' })
    const commits = Array.from({ length: 400 }, (_, i) =>
      gh.commitTo(APP, {
        message: `Direct change ${String(i + 1).padStart(3, '0')}`,
        author: { login: 'alice' },
        files: [{ filename: `src/direct${i + 1}.ts`, additions: 1 }]
      })
    )
    const head = commits[399] as FakeCommit
    const result = await run({
      eventName: 'push',
      event: servers.push('refs/heads/main', start.sha, head.sha),
      inputs: { dashboard: 'false' }
    })
    expect(result.outputs.decision).toBe('new-job')
    const [prompt = ''] = allPrompts()
    expect(prompt).toContain(': Direct change 400\n')
    expect(prompt).toContain(': Direct change 301\n')
    expect(prompt).not.toContain(': Direct change 300\n')
    expect(prompt).not.toContain(': Direct change 001\n')
    expect(prompt).not.toContain('the next runs take them')
    expect(prompt).toContain(
      "300 older changes of the range, beyond one run's 25 pull requests and 100 commits (no dashboard keeps them for a later run: send them with a prompt)"
    )
  })

  it('without the dashboard, long commits beyond one prompt leave out the oldest, named', async () => {
    const start = gh.commitTo(APP, { message: 'Initial commit' })
    const commits = pushDirect(60)
    const result = await run({
      eventName: 'push',
      event: servers.push('refs/heads/main', start.sha, (commits[59] as FakeCommit).sha),
      inputs: { dashboard: 'false' }
    })
    expect(result.outputs.decision).toBe('new-job')
    const [prompt = ''] = allPrompts()
    const taken = described(prompt)
    expect(taken.length).toBeGreaterThan(10)
    expect(taken).toEqual(Array.from({ length: taken.length }, (_, i) => 61 - taken.length + i))
    expect(prompt).toContain(
      `${60 - taken.length} older changes of the range, beyond what one prompt holds (no dashboard keeps them for a later run: send them with a prompt)`
    )
  })
})

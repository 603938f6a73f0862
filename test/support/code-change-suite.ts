import { afterAll, beforeAll, beforeEach } from 'vitest'
import type { Clock } from '../../src/runner/clock.js'
import type { FakeGitHub } from '../simulator/fake-github.js'
import { APP, type ChangeRun, CodeChangeServers } from './code-change-runs.js'
import { type GitHubValidator, gitHubValidator } from './github-openapi.js'
import type { RunResult } from './run-action.js'
import { runInProcess } from './run-in-process.js'

export interface CodeChangeSuite {
  /** Every GitHub call of the file so far: earlier tests', and the current one's once kept. */
  readonly calls: FakeGitHub['requests']
  /** Moves the current test's calls so far into `calls`, leaving the fake's list empty for counting. */
  keepCalls(): void
  /** Every call of the file that GitHub's OpenAPI description refuses, as `METHOD path: why`, once each. */
  problems(): string[]
  /** The next run (a new run id) of the servers' step, in-process on the suite's clock. */
  run(r?: ChangeRun): Promise<RunResult>
}

/**
 * One world of code-change runs for a test file, on its virtual clock: the servers started once and
 * handed to `use`, reset before each test (with an initial commit on the default branch unless
 * `initialCommit` is false), and every GitHub call kept so that the file checks them all against
 * GitHub's published description at its end.
 */
export function codeChangeSuite(
  clock: Clock,
  use: (servers: CodeChangeServers) => void,
  options: { initialCommit?: boolean } = {}
): CodeChangeSuite {
  let servers: CodeChangeServers
  let validator: GitHubValidator
  const calls: FakeGitHub['requests'] = []
  const keepCalls = (): void => {
    calls.push(...servers.gh.requests.splice(0))
  }
  beforeAll(async () => {
    servers = await CodeChangeServers.start({ now: clock.wallNow })
    use(servers)
    validator = await gitHubValidator()
  }, 60_000)
  afterAll(() => servers.close())
  beforeEach(() => {
    keepCalls()
    servers.reset()
    if (options.initialCommit !== false) servers.gh.commitTo(APP, { message: 'Initial commit' })
  })
  return {
    calls,
    keepCalls,
    run: (r = {}) => {
      servers.runId++
      return runInProcess({ clock, ...servers.step(r) })
    },
    problems: () => {
      keepCalls()
      const found = calls.flatMap(c =>
        validator.problems(c).map(p => `${c.method} ${c.path}: ${p}`)
      )
      return [...new Set(found)]
    }
  }
}

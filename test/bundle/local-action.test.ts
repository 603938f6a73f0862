// The actions run from source by GitHub's @github/local-action (`npm run local:agent`,
// `npm run local:visitors`), which loads each entry's `main.ts`, calls its exported run() with
// @actions/core and @actions/github replaced by its own stubs, and prints the outputs in a table.
import { spawn } from 'node:child_process'
import { accessSync, constants, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SIM_API_KEY, SIM_PROJECT, Simulator } from '../simulator/server.js'
import { FakeGitHub } from '../simulator/fake-github.js'
import { limitChild } from '../support/child-limit.js'
import { ROOT } from '../support/run-action.js'
import { temporaryFolder } from '../support/temporary.js'

const PACKAGE = path.join(ROOT, 'node_modules', '@github', 'local-action')
const BIN = path.join(PACKAGE, 'bin', 'local-action.js')
/**
 * What the bin runs once it has found the package manager (npm: this repository's package.json
 * names none) and the action's folder: `npm exec tsx <its src/index.ts> -- <arguments>`, with
 * TARGET_ACTION_PATH and NODE_PACKAGE_MANAGER set. The bin's way is the `npm run local:agent` test's;
 * the others run local-action's src/index.ts under tsx's loader in one process (`node --import tsx`,
 * what tsx's command line starts), without npm exec: about a second of CPU less each time.
 */
const LOCAL_ACTION = path.join(PACKAGE, 'src', 'index.ts')
// A run takes about 3 s of CPU (tsx, local-action and its stubs; npm exec and the real `npm ls`
// for the first), far longer on a machine busy with other work: its time limit is a safety net for
// a run that hangs, within the test's.
const LIMIT_MS = 100_000
const TEST_LIMIT_MS = 120_000
/** Ends a run's process group: npm exec and tsx under it. */
function endGroup(pid: number | undefined): void {
  try {
    if (pid !== undefined) process.kill(-pid, 'SIGKILL')
  } catch {
    // Ended meanwhile.
  }
}
/**
 * `npm` for the runs. local-action runs `npm ls <the packages it stubs> --json --long` at every
 * start, to find them: a second of CPU each time, for the same answer, as the tree does not change
 * while the file runs. This npm asks the real one once for each set of arguments (the first run,
 * which goes alone) and answers again from what it said; anything else goes to the real npm.
 */
const NPM_ONCE = `#!/usr/bin/env node
const { spawnSync } = require('node:child_process')
const { createHash } = require('node:crypto')
const fs = require('node:fs')
const path = require('node:path')
const args = process.argv.slice(2)
const real = process.env.NPM_ONCE_REAL
if (args[0] !== 'ls') process.exit(spawnSync(real, args, { stdio: 'inherit' }).status ?? 1)
const key = createHash('sha256').update([process.cwd(), ...args].join('\\0')).digest('hex')
const said = path.join(__dirname, key + '.json')
if (!fs.existsSync(said)) {
  const answer = spawnSync(real, args, { encoding: 'utf8', maxBuffer: 1 << 26 })
  if (answer.status !== 0) {
    process.stdout.write(answer.stdout ?? '')
    process.stderr.write(answer.stderr ?? '')
    process.exit(answer.status ?? 1)
  }
  fs.writeFileSync(said, answer.stdout)
}
process.stdout.write(fs.readFileSync(said))
`

/** The folder of that npm, to put first on PATH, and the real npm's path it calls. */
function npmOnce(): { dir: string; real: string } {
  const real = (process.env.PATH ?? '')
    .split(path.delimiter)
    .map(dir => path.join(dir, 'npm'))
    .find(file => {
      try {
        accessSync(file, constants.X_OK)
        return true
      } catch {
        return false
      }
    })
  if (!real) throw new Error('npm is not on PATH')
  const dir = temporaryFolder('npm-once-')
  writeFileSync(path.join(dir, 'npm'), NPM_ONCE, { mode: 0o755 })
  return { dir, real }
}
let npm: { dir: string; real: string }

// Runs still going when the file ends (a test that failed while its run went on).
const running = new Set<number>()
afterAll(() => {
  for (const pid of running) endGroup(pid)
})

interface LocalRun {
  code: number | null
  log: string
  /** The "Action Outputs" table local-action prints at the end (set through its core stub). */
  outputs: Record<string, string>
  workspace: string
  summary: string
}

/**
 * `local-action run <action dir> <entry> <env file> [...more]`, from the repository, with a clean
 * environment: through its bin as `npm run local:*` does when `bin` is set, else as the bin would.
 */
async function localAction(
  actionDir: string,
  entry: string,
  vars: Record<string, string>,
  { more = [], bin = false }: { more?: string[]; bin?: boolean } = {}
): Promise<LocalRun> {
  const workspace = temporaryFolder('mintlify-local-action-')
  const summaryFile = path.join(workspace, 'summary.md')
  const envFile = path.join(workspace, 'inputs.env')
  const lines = Object.entries({
    ...vars,
    GITHUB_WORKSPACE: workspace,
    GITHUB_STEP_SUMMARY: summaryFile
  }).map(([name, value]) => `${name}=${value}`)
  writeFileSync(envFile, lines.join('\n') + '\n')
  // Its own process group, so that a run that hangs can be ended with npm exec and tsx under it.
  const args = ['run', actionDir, entry, envFile, ...more]
  const clean = {
    PATH: `${npm.dir}${path.delimiter}${process.env.PATH ?? ''}`,
    NPM_ONCE_REAL: npm.real,
    HOME: process.env.HOME ?? '',
    FORCE_COLOR: '0'
  }
  const bare = {
    TARGET_ACTION_PATH: path.resolve(ROOT, actionDir),
    NODE_PACKAGE_MANAGER: 'npm',
    NODE_NO_WARNINGS: '1'
  }
  const command = bin ? [BIN, ...args] : ['--import', 'tsx', LOCAL_ACTION, ...args]
  const child = spawn(process.execPath, command, {
    cwd: ROOT,
    env: bin ? clean : { ...clean, ...bare },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true
  })
  let log = ''
  child.stdout.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')))
  child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')))
  const pid = child.pid
  if (pid !== undefined) running.add(pid)
  limitChild(
    child,
    LIMIT_MS,
    line => (log += `\n${line}\n`),
    () => endGroup(pid)
  )
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject)
    child.on('close', resolve)
  }).finally(() => pid !== undefined && running.delete(pid))
  let summary = ''
  try {
    summary = readFileSync(summaryFile, 'utf8')
  } catch {
    // No summary written.
  }
  return { code, log, outputs: outputTable(log), workspace, summary }
}

/** Rows such as `│ 5 │ 'result' │ 'pr-opened' │` of the table after "Action Outputs". */
function outputTable(log: string): Record<string, string> {
  const table = log.split('Action Outputs')[1] ?? ''
  const outputs: Record<string, string> = {}
  for (const m of table.matchAll(/^│\s*\d+\s*│\s*'([^']+)'\s*│\s*(['"`])(.*)\2\s*│$/gm)) {
    outputs[m[1] as string] = m[3] as string
  }
  return outputs
}

const connection = {
  'INPUT_API-KEY': SIM_API_KEY,
  'INPUT_PROJECT-ID': SIM_PROJECT
}

let sim: Simulator
let gh: FakeGitHub
beforeAll(async () => {
  npm = npmOnce()
  sim = await Simulator.start({ job: { durationMs: 500 } })
  sim.setVisitors(30)
  gh = await FakeGitHub.start()
  gh.commitTo('acme/app', { message: 'Initial commit' })
})
afterAll(async () => {
  await sim.close()
  await gh.close()
})

/** What a sub-action's run needs of GitHub: the fake's URL, a repository, a token. */
const onGitHub = (repository: string) => ({
  GITHUB_API_URL: gh.url,
  GITHUB_SERVER_URL: 'https://github.com',
  GITHUB_REPOSITORY: repository,
  'INPUT_GITHUB-TOKEN': 'ghs_local_action_token'
})

// The first run goes alone, through local-action's bin as `npm run local:agent` runs it: it asks
// npm what the others are then told (npmOnce).
describe(
  'the agent run from source by @github/local-action, as npm run local:agent runs it',
  { timeout: TEST_LIMIT_MS },
  () => {
    it('agent: creates the job, waits, reports the pull request, then runs the post step', async () => {
      const run = await localAction(
        '.',
        'src/prompt/main.ts',
        {
          ...connection,
          'INPUT_API-URL': sim.url,
          INPUT_PROMPT: 'Document the retry options of the client',
          'INPUT_POLL-INTERVAL': '1s',
          INPUT_TIMEOUT: '20s'
          // No github-token: local-action passes its default, `${{ github.token }}`, as written.
        },
        { more: ['--post', 'src/post/main.ts'], bin: true }
      )
      // local-action exits 0 even after core.setFailed: the log tells failures.
      expect(run.code, run.log).toBe(0)
      expect(run.log).not.toMatch(/::(error|warning)/)
      expect(run.log).toMatch(/Running Post Step/)
      expect(run.outputs).toMatchObject({
        result: 'pr-opened',
        status: 'completed',
        prLink: expect.stringMatching(/^https:\/\/github\.com\/acme\/docs\/pull\/\d+$/),
        jobId: expect.stringMatching(/^job_/)
      })
      expect(run.summary).toContain(run.outputs.prLink)
      expect(run.log + run.summary).not.toContain(SIM_API_KEY)
    })
  }
)

// One after another: at once, the five runs (each about 3 s of CPU, mostly loading modules through
// tsx's loader) contend for the cores with the sources' tests, and cost 2 to 3 s of CPU more in
// all (measured) for a file whose time is hidden behind theirs.
describe(
  'the sub-actions run from source by @github/local-action',
  { timeout: TEST_LIMIT_MS },
  () => {
    it('visitors: writes every row to the file in the workspace', async () => {
      const run = await localAction('visitors', '../src/visitors/main.ts', {
        ...connection,
        'INPUT_API-URL': sim.url,
        'INPUT_DATE-FROM': '2026-11-01',
        'INPUT_DATE-TO': '2026-11-08',
        'INPUT_OUTPUT-FILE': 'out/visitors.json'
      })
      expect(run.code, run.log).toBe(0)
      expect(run.log).not.toMatch(/::(error|warning)/)
      expect(run.outputs).toMatchObject({ pages: '30', file: 'out/visitors.json' })
      const doc = JSON.parse(readFileSync(path.join(run.workspace, 'out', 'visitors.json'), 'utf8'))
      expect(doc.visitors).toHaveLength(30)
      expect(String(doc.totals.total)).toBe(run.outputs.total)
      expect(run.summary).not.toBe('')
      expect(run.log + run.summary).not.toContain(SIM_API_KEY)
    })

    it('changes: a dry-run catch-up reads the policy and the history, checks the key, writes nothing', async () => {
      const run = await localAction('changes', '../src/changes/main.ts', {
        ...connection,
        ...onGitHub('acme/app'),
        'INPUT_API-URL': sim.url,
        'INPUT_DRY-RUN': 'true',
        GITHUB_EVENT_NAME: 'workflow_dispatch'
      })
      expect(run.code, run.log).toBe(0)
      expect(run.log).not.toMatch(/::(error|warning)/)
      expect(run.log).toContain(
        'Policy: the built-in defaults (acme/app has no .github/docs-agent.yml'
      )
      expect(run.outputs).toMatchObject({ result: 'dry-run', decision: 'skip' })
      expect(run.summary).toContain('Key and project: checked with a request that spends nothing')
    })

    it('review: an event that is no review is told which action takes it, before any request', async () => {
      const run = await localAction('review', '../src/review/main.ts', {
        ...connection,
        'INPUT_API-URL': sim.url,
        'INPUT_DOCS-TOKEN': 'ghs_local_docs_token',
        GITHUB_EVENT_NAME: 'push'
      })
      expect(run.code, run.log).toBe(0)
      expect(run.outputs).toMatchObject({ result: 'skipped' })
      expect(run.log).toContain('A push event is not a review or a comment on a pull request')
    })

    it('impact: a dry run reads the dashboard and says there is nothing to measure yet', async () => {
      const run = await localAction('impact', '../src/impact/main.ts', {
        ...connection,
        ...onGitHub('acme/docs'),
        'INPUT_API-URL': sim.url,
        'INPUT_DOCS-TOKEN': 'ghs_local_docs_token',
        'INPUT_DRY-RUN': 'true'
      })
      expect(run.code, run.log).toBe(0)
      expect(run.log).not.toMatch(/::error/)
      expect(run.log).toContain('holds no ledger for project')
    })

    it('gaps: reads the signals and writes the report', async () => {
      const run = await localAction('gaps', '../src/gaps/main.ts', {
        ...connection,
        'INPUT_API-URL': sim.url,
        'INPUT_DATE-FROM': '2026-11-01',
        'INPUT_DATE-TO': '2026-11-08',
        'INPUT_OUTPUT-FILE': 'out/gaps.json'
      })
      expect(run.code, run.log).toBe(0)
      expect(run.log).not.toMatch(/::error/)
      const report = JSON.parse(readFileSync(path.join(run.workspace, 'out', 'gaps.json'), 'utf8'))
      expect(report).toMatchObject({ dateFrom: '2026-11-01' })
    })
  }
)

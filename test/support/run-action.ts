import { type ChildProcess, spawn } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { temporaryFolder } from './temporary.js'
import { withPolicyFile } from './policy-file.js'
import { limitChild } from './child-limit.js'

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')

export interface RunOptions {
  /** The bundle to run, as dist/… (in-process runs take the same names for the matching main.ts). */
  entry?: string
  /** Inputs by their action.yml names; passed as INPUT_* variables the way the runner does. */
  inputs: Record<string, string>
  /** More environment variables (GITHUB_* and the like). */
  env?: Record<string, string>
  /** Files to place in the workspace before the run (folders are created). */
  files?: Record<string, string>
  /** A workspace prepared by the test; by default a new temporary folder, removed after the file. */
  workspace?: string
  /** The webhook payload, written to GITHUB_EVENT_PATH. */
  event?: unknown
  /** Saved state from an earlier step, as the runner hands it to a post step (STATE_*). */
  state?: Record<string, string>
  /** Called with each chunk the action prints. */
  onOutput?: (text: string) => void
  /** The bundle's time limit (RUN_LIMIT_MS by default): it is killed past it. */
  limitMs?: number
}

export interface RunResult {
  code: number | null
  signal: NodeJS.Signals | null
  /** stdout and stderr together, in order. */
  log: string
  outputs: Record<string, string>
  /** What the step saved with core.saveState. */
  state: Record<string, string>
  summary: string
  workspace: string
  durationMs: number
}

/**
 * How long a run of a bundle may take before it is killed: a few seconds normally, far longer on a
 * busy machine. A run that hangs then fails its test saying so, and stops using the machine, rather
 * than holding its worker until the test's own time limit and running on after it.
 */
export const RUN_LIMIT_MS = 30_000

export interface RunningAction {
  child: ChildProcess
  done: Promise<RunResult>
  /** Resolves when the log first matches. */
  waitFor(pattern: RegExp): Promise<void>
}

/** The step's workspace and the runner's files and variables, as a runner prepares them for a step. */
export interface StepFiles {
  workspace: string
  env: Record<string, string>
  outputFile: string
  summaryFile: string
  stateFile: string
}

/** Creates the workspace with the test's files, the event file and the runner's empty command files. */
export function prepareStep(options: RunOptions): StepFiles {
  const workspace = options.workspace ?? temporaryFolder('mintlify-action-')
  for (const [name, content] of Object.entries(options.files ?? {})) {
    mkdirSync(path.dirname(path.join(workspace, name)), { recursive: true })
    writeFileSync(path.join(workspace, name), content)
  }
  const outputFile = path.join(workspace, '.github_output')
  const summaryFile = path.join(workspace, '.github_step_summary')
  const stateFile = path.join(workspace, '.github_state')
  const eventFile = path.join(workspace, '.github_event.json')
  writeFileSync(outputFile, '')
  writeFileSync(summaryFile, '')
  writeFileSync(stateFile, '')
  writeFileSync(eventFile, JSON.stringify(options.event ?? {}))
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: workspace,
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: summaryFile,
    GITHUB_STATE: stateFile,
    GITHUB_EVENT_PATH: eventFile,
    RUNNER_TEMP: workspace,
    ...options.env
  }
  return { workspace, env, outputFile, summaryFile, stateFile }
}

/**
 * The folder of the bundles under test: dist/, or the fresh build .ci/run makes (ACTION_DIST), so
 * that the runner's contract is checked on what the sources build today.
 */
export const DIST = process.env.ACTION_DIST
  ? path.resolve(ROOT, process.env.ACTION_DIST)
  : path.join(ROOT, 'dist')

/** Starts `node dist/...` as the runner does: INPUT_* variables, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files. */
export function startAction(given: RunOptions & { asGiven?: boolean }): RunningAction {
  const options = withPolicyFile(given)
  const { workspace, env, outputFile, summaryFile, stateFile } = prepareStep(options)
  for (const [name, value] of Object.entries(options.state ?? {})) env[`STATE_${name}`] = value
  for (const [name, value] of Object.entries(options.inputs))
    env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value
  const started = Date.now()
  // ACTION_NODE runs the bundle on another Node (the runners' node24) while the tests run on this one.
  const node = process.env.ACTION_NODE || process.execPath
  const child = spawn(
    node,
    [path.join(DIST, (options.entry ?? 'dist/index.js').replace(/^dist\//, ''))],
    {
      cwd: workspace,
      env,
      stdio: ['ignore', 'pipe', 'pipe']
    }
  )
  let log = ''
  const watchers: { pattern: RegExp; resolve: () => void }[] = []
  const onChunk = (chunk: Buffer): void => {
    const text = chunk.toString('utf8')
    log += text
    options.onOutput?.(text)
    for (const w of [...watchers]) {
      if (w.pattern.test(log)) {
        watchers.splice(watchers.indexOf(w), 1)
        w.resolve()
      }
    }
  }
  child.stdout?.on('data', onChunk)
  child.stderr?.on('data', onChunk)
  limitChild(child, options.limitMs ?? RUN_LIMIT_MS, line => (log += `\n${line}\n`))
  const done = new Promise<RunResult>((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code, signal) =>
      resolve({
        code,
        signal,
        log,
        outputs: parseOutputFile(readFileSync(outputFile, 'utf8')),
        state: parseOutputFile(readFileSync(stateFile, 'utf8')),
        summary: readFileSync(summaryFile, 'utf8'),
        workspace,
        durationMs: Date.now() - started
      })
    )
  })
  const waitFor = (pattern: RegExp): Promise<void> =>
    pattern.test(log)
      ? Promise.resolve()
      : new Promise(resolve => watchers.push({ pattern, resolve }))
  return { child, done, waitFor }
}

export function runAction(options: RunOptions): Promise<RunResult> {
  return startAction(options).done
}

/** Reads the `name<<DELIMITER … DELIMITER` blocks @actions/core writes; a later value wins. */
export function parseOutputFile(text: string): Record<string, string> {
  const outputs: Record<string, string> = {}
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^<]+)<<(.+)$/.exec(lines[i] as string)
    if (!m) continue
    const [, name, delimiter] = m as unknown as [string, string, string]
    const value: string[] = []
    for (i++; i < lines.length && lines[i] !== delimiter; i++) value.push(lines[i] as string)
    outputs[name] = value.join('\n')
  }
  return outputs
}

import type { Clock } from '../../src/runner/clock.js'
import { run as agent } from '../../src/prompt/main.js'
import { run as changes } from '../../src/changes/main.js'
import { run as review } from '../../src/review/main.js'
import { run as impact } from '../../src/impact/main.js'
import { run as post } from '../../src/post/main.js'
import { run as gaps } from '../../src/gaps/main.js'
import { run as visitors } from '../../src/visitors/main.js'
import type { Runner } from '../../src/runner/runner.js'
import { RecordingRunner } from './recording-runner.js'
import { type RunOptions, type RunResult, prepareStep } from './run-action.js'
import { VirtualClock } from './virtual-clock.js'
import { withPolicyFile } from './policy-file.js'

/** Each bundle's `run()`, from source, under the name of its bundle. */
const ENTRIES: Record<string, { run: (runner: Runner) => Promise<void>; title?: string }> = {
  'dist/index.js': { run: agent, title: 'Mintlify agent' },
  'dist/changes/index.js': { run: changes, title: 'Mintlify agent' },
  'dist/review/index.js': { run: review, title: 'Mintlify agent' },
  'dist/impact/index.js': { run: impact, title: 'Mintlify agent' },
  'dist/post/index.js': { run: post, title: 'Mintlify agent' },
  'dist/visitors/index.js': { run: visitors },
  'dist/gaps/index.js': { run: gaps }
}

export interface InProcessOptions extends RunOptions {
  /** The inputs as given, moved ones included (see withPolicyFile): for tests of their refusal. */
  asGiven?: boolean
  /** The action's clock; give the simulator the same one (`now: clock.wallNow`). */
  clock?: Clock
}

export interface InProcessResult extends RunResult {
  /**
   * The time the run spent in its clock's pauses (retry waits, polls), which a virtual clock skips:
   * what `durationMs` holds besides real time, and does not vary with the machine's load.
   */
  waitedMs: number
}

export interface RunningInProcess {
  runner: RecordingRunner
  done: Promise<InProcessResult>
  /** Resolves when the log first matches. */
  waitFor(pattern: RegExp): Promise<void>
  /** The runner's cancel, as SIGINT or SIGTERM would bring it. */
  cancel(signal?: NodeJS.Signals): void
}

/**
 * Runs an action's `run()` from src/ in this process with a recording runner: the same workspace,
 * event file and environment as the bundle gets, the same result shape, no process started.
 */
export function startInProcess(given: InProcessOptions): RunningInProcess {
  const options = { ...given, ...withPolicyFile(given) }
  const entry = ENTRIES[options.entry ?? 'dist/index.js']
  if (!entry) throw new Error(`no in-process entry for ${options.entry}`)
  const step = prepareStep(options)
  const clock = options.clock ?? new VirtualClock()
  const watchers: { pattern: RegExp; resolve: () => void }[] = []
  const runner: RecordingRunner = new RecordingRunner({
    inputs: options.inputs,
    env: step.env,
    state: options.state,
    clock,
    title: entry.title,
    onLine: line => {
      options.onOutput?.(`${line}\n`)
      for (const w of [...watchers])
        if (w.pattern.test(runner.transcript)) {
          watchers.splice(watchers.indexOf(w), 1)
          w.resolve()
        }
    }
  })
  const started = clock.now()
  const pausesBefore = clock instanceof VirtualClock ? clock.pauses.length : 0
  const done = entry.run(runner).then((): InProcessResult => ({
    code: runner.failure === undefined ? 0 : 1,
    signal: null,
    log: runner.transcript,
    outputs: { ...runner.outputs },
    state: { ...runner.saved },
    summary: runner.summaryText,
    workspace: step.workspace,
    durationMs: clock.now() - started,
    waitedMs: clock instanceof VirtualClock ? clock.waitedSince(pausesBefore) : 0
  }))
  return {
    runner,
    done,
    waitFor: pattern =>
      pattern.test(runner.transcript)
        ? Promise.resolve()
        : new Promise(resolve => watchers.push({ pattern, resolve })),
    cancel: signal => runner.cancel(signal)
  }
}

export function runInProcess(options: InProcessOptions): Promise<InProcessResult> {
  return startInProcess(options).done
}

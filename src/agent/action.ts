import { readRunEvent } from '../github/event.js'
import { describeError } from '../runner/errors.js'
import type { Runner } from '../runner/runner.js'
import { type FrameSettings, type PrepareRun, type RunEnd, runAgent } from './agent-run.js'
import { publish } from './report.js'
import { secretsOf } from './settings.js'

/** An agent action: how it reads its settings, and the flow it runs on its trigger. */
export interface AgentAction<S extends FrameSettings> {
  read: (runner: Runner) => S
  prepare: PrepareRun<S>
}

/**
 * The body of every agent action's `run()`: validate the inputs, run the action's flow and the job,
 * and report on every exit path, with one failure message and no stack trace.
 */
export async function runAgentAction<S extends FrameSettings>(
  runner: Runner,
  action: AgentAction<S>
): Promise<void> {
  const { clock } = runner
  const started = clock.now()
  const cancel = runner.cancellation()
  let settings: S | undefined
  let end: RunEnd
  try {
    settings = action.read(runner)
    end = await runAgent(settings, readRunEvent(runner.env), runner, cancel.signal, action.prepare)
  } catch (error) {
    end = {
      outcome: { kind: 'failed', cancelled: cancel.signal.aborted },
      failure: describeError(error, secretsOf(settings), runner.log.debug)
    }
  } finally {
    cancel.dispose()
  }
  await publish(
    runner,
    {
      ...end,
      projectId: settings?.projectId,
      elapsedMs: clock.now() - started,
      now: new Date(clock.wallNow())
    },
    secretsOf(settings)
  )
}

import { readRunEvent } from '../github/event.js'
import { coreRunner } from '../runner/core-runner.js'
import { describeError } from '../runner/errors.js'
import type { Runner } from '../runner/runner.js'
import { type RunEnd, runAgent } from './agent-run.js'
import { publish } from './report.js'
import { type Settings, readSettings, secretsOf } from './settings.js'

/** The agent action: validate inputs, run the job, and report on every exit path. */
export async function run(runner: Runner = coreRunner('Mintlify agent')): Promise<void> {
  const { clock } = runner
  const started = clock.now()
  const cancel = runner.cancellation()
  let settings: Settings | undefined
  let end: RunEnd
  try {
    settings = readSettings(runner.input, runner.env, runner.mask)
    end = await runAgent(settings, readRunEvent(runner.env), runner, cancel.signal)
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

import { readRunEvent } from '../github/event.js'
import {
  ACTION_INPUTS,
  MOVED_TO_POLICY,
  NEW_POLICY_KEYS,
  REMOVED_INPUT
} from '../policy/actions.js'
import { policyPath } from '../policy/load.js'
import { movedInputs } from '../policy/migration.js'
import { InputError, describeError } from '../runner/errors.js'
import type { Runner } from '../runner/runner.js'
import { type AgentAction, type FrameSettings, type RunEnd, runAgent } from './agent-run.js'
import { Input } from './names.js'
import { publish } from './report.js'
import { type Inputs, readInputs, secretsOf } from './settings.js'

/** Every input name an agent action had in v1 or has in v2: what a workflow may still give. */
const KNOWN_INPUTS = [
  ...new Set([
    ...Object.values(ACTION_INPUTS).flat(),
    ...MOVED_TO_POLICY,
    ...NEW_POLICY_KEYS,
    REMOVED_INPUT,
    Input.Prompt
  ])
]

/** Inputs a workflow gave that are not this action's: they moved in v2, the message says where. */
export class MovedInputsError extends InputError {
  constructor(
    message: string,
    /** The whole message: each input's new place, and the policy file's YAML to paste. */
    readonly details: string
  ) {
    super(message)
  }
}

/**
 * The body of every agent action's `run()`: validate the inputs (refusing those that moved in
 * v2, before any request), run the action's flow and the job, and report on every exit path, with
 * one failure message and no stack trace.
 */
export async function runAgentAction<S extends FrameSettings>(
  runner: Runner,
  action: AgentAction<S>
): Promise<void> {
  const { clock } = runner
  const started = clock.now()
  const cancel = runner.cancellation()
  let inputs: Inputs | undefined
  const ran: { settings?: S } = {}
  let end: RunEnd
  try {
    inputs = readInputs(runner.input, runner.env, runner.mask, action.defaults)
    refuseMovedInputs(runner, action, inputs)
    end = await runAgent(inputs, readRunEvent(runner.env), runner, cancel.signal, action, ran)
  } catch (error) {
    end = {
      outcome: { kind: 'failed', cancelled: cancel.signal.aborted },
      failure: describeError(error, secretsOf(inputs), runner.log.debug),
      ...(error instanceof MovedInputsError ? { details: error.details } : {})
    }
  } finally {
    cancel.dispose()
  }
  await publish(
    runner,
    {
      ...end,
      projectId: inputs?.projectId,
      elapsedMs: clock.now() - started,
      now: new Date(clock.wallNow())
    },
    secretsOf(inputs)
  )
}

/** v1's inputs given to this action that moved in v2: refused, with their new places. */
function refuseMovedInputs(
  runner: Runner,
  action: Pick<AgentAction<FrameSettings>, 'name'>,
  inputs: Inputs
): void {
  const given: Record<string, string> = {}
  for (const name of KNOWN_INPUTS) {
    const value = runner.input(name)
    if (value.trim()) given[name] = value
  }
  const details = movedInputs(action.name, given, policyPath(inputs.config).path)
  if (!details) return
  const names = details
    .split('\n')
    .filter(line => line.startsWith("- '"))
    .map(line => line.slice(2, line.indexOf("'", 3) + 1))
  throw new MovedInputsError(
    `${details.split('\n')[0]} ${names.join(', ')}. The summary says where each lives now, with the policy file's YAML to paste.`,
    details
  )
}

import * as core from '@actions/core'
import { errorText } from './errors.js'
import { systemClock } from './clock.js'
import { lineLogger } from './logger.js'
import type { Runner } from './runner.js'

/**
 * The runner as @actions/core reaches it: inputs and state from INPUT_* and STATE_* variables,
 * outputs and the summary through their files, log lines and annotations on standard output.
 * `title` heads the action's notices in the run's annotations.
 */
export function coreRunner(title?: string): Runner {
  const log = lineLogger({
    debug: message => core.debug(message),
    info: message => core.info(message),
    notice: message => core.notice(message, title ? { title } : {}),
    warning: message => core.warning(message)
  })
  return {
    env: process.env,
    clock: systemClock,
    log,
    input: name => core.getInput(name, { trimWhitespace: false }),
    mask: secret => core.setSecret(secret),
    setOutput: (name, value) => core.setOutput(name, value),
    saveState: (name, value) => core.saveState(name, value),
    state: name => core.getState(name),
    group: (name, fn) => core.group(name, fn),
    summary: async markdown => {
      if (!process.env.GITHUB_STEP_SUMMARY) return
      try {
        await core.summary.addRaw(markdown).write()
      } catch (error) {
        log.warning(`Could not write the job summary: ${errorText(error)}`)
      }
    },
    fail: message => core.setFailed(message),
    cancellation: () => cancelOnSignals(['SIGINT', 'SIGTERM'])
  }
}

/** The runner cancels a step with SIGINT, then SIGTERM: either aborts the returned signal. */
function cancelOnSignals(signals: readonly NodeJS.Signals[]): {
  signal: AbortSignal
  dispose: () => void
} {
  const controller = new AbortController()
  const onSignal = (name: NodeJS.Signals): void => controller.abort(new Error(`Received ${name}`))
  for (const name of signals) process.on(name, onSignal)
  return {
    signal: controller.signal,
    dispose: () => {
      for (const name of signals) process.off(name, onSignal)
    }
  }
}

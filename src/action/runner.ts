import * as core from '@actions/core'
import type { Logger } from './clock.js'
import { ExplainedError } from './errors.js'
import { redact, secretForms } from './redact.js'

/**
 * One log line, whatever it holds: a line break inside a message would let text from the service
 * or an issue start a line of its own, which the runner reads as a workflow command.
 */
export const oneLine = (message: string): string =>
  message
    .replace(/\r/g, '\\r')
    .replace(/\n/g, '\\n')
    .replace(/[\u2028\u2029]/g, ' ')

/** The domain modules' logger, writing through @actions/core, one line per message. */
export const coreLogger: Logger = {
  debug: message => core.debug(oneLine(message)),
  info: message => core.info(oneLine(message)),
  warning: message => core.warning(oneLine(message))
}

/** One line for the failure: our own messages as they are, anything else marked unexpected (stack in debug). */
export function describeError(error: unknown, secrets: readonly (string | undefined)[]): string {
  let message: string
  if (error instanceof ExplainedError) message = error.message
  else {
    message = `Unexpected error: ${error instanceof Error ? error.message : String(error)}`
    if (error instanceof Error && error.stack) core.debug(error.stack)
  }
  return redact(message, secretForms(secrets.filter((s): s is string => Boolean(s))))
}

/** Appends the job summary; a summary that cannot be written is a warning, not a failure. */
export async function writeSummary(markdown: string): Promise<void> {
  if (!process.env.GITHUB_STEP_SUMMARY) return
  try {
    await core.summary.addRaw(markdown).write()
  } catch (error) {
    core.warning(
      `Could not write the job summary: ${error instanceof Error ? error.message : String(error)}`
    )
  }
}

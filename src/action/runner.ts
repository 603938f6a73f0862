import * as core from '@actions/core'
import type { Logger } from './clock.js'
import { ExplainedError } from './errors.js'

/** The domain modules' logger, writing through @actions/core. */
export const coreLogger: Logger = { debug: core.debug, info: core.info, warning: core.warning }

/** One line for the failure: our own messages as they are, anything else marked unexpected (stack in debug). */
export function describeError(error: unknown, apiKey: string | undefined): string {
  let message: string
  if (error instanceof ExplainedError) message = error.message
  else {
    message = `Unexpected error: ${error instanceof Error ? error.message : String(error)}`
    if (error instanceof Error && error.stack) core.debug(error.stack)
  }
  return apiKey ? message.split(apiKey).join('***') : message
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

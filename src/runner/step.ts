import { describeError } from './errors.js'
import type { Runner } from './runner.js'

/** What a step's body registers while it runs, for the frame to use when it ends. */
export interface StepScope {
  /** Aborted when the runner cancels the step. */
  readonly signal: AbortSignal
  /** A secret no failure message may show, in any of its forms. */
  secret(value: string): void
  /** Runs when the step ends, however it ends; later registrations run first. */
  finally(cleanup: () => Promise<void>): void
  /** On failure: undoes what the step started, and returns a sentence to add to the message. */
  onFailure(undo: () => Promise<string>): void
}

/**
 * The frame every step runs in: cancellation from the runner's signals, one failure line with no
 * secret in it and no stack trace, and clean-up on every path.
 */
export async function runStep(
  runner: Runner,
  body: (scope: StepScope) => Promise<void>
): Promise<void> {
  const cancel = runner.cancellation()
  const secrets: string[] = []
  const cleanups: (() => Promise<void>)[] = []
  const undos: (() => Promise<string>)[] = []
  const scope: StepScope = {
    signal: cancel.signal,
    secret: value => void secrets.push(value),
    finally: cleanup => void cleanups.unshift(cleanup),
    onFailure: undo => void undos.unshift(undo)
  }
  try {
    await body(scope)
  } catch (error) {
    let message = describeError(error, secrets, runner.log.debug)
    for (const undo of undos) {
      const said = await undo().catch(() => '')
      if (said) message += ` ${said}`
    }
    runner.fail(message)
  } finally {
    cancel.dispose()
    for (const cleanup of cleanups) await cleanup().catch(() => undefined)
  }
}

import type { Clock } from './clock.js'
import type { Logger } from './logger.js'

/** Sent in the User-Agent of every request; a test keeps it equal to package.json's version. */
export const ACTION_VERSION = '2.0.0'
export const USER_AGENT = `mintlify-agent-action/${ACTION_VERSION}`

/**
 * What an action needs from the runner. Each action's `run()` takes one: the real runner
 * (core-runner.ts) by default, a recording one in the tests, which run every flow in-process.
 */
export interface Runner {
  /** The runner's environment: GITHUB_* variables, the workspace, proxies. */
  readonly env: NodeJS.ProcessEnv
  readonly clock: Clock
  /** One line per message: a line break cannot start a workflow command. */
  readonly log: Logger
  /** An input as given, untrimmed; '' when unset. */
  input(name: string): string
  /** Hides a secret in the log from now on. */
  mask(secret: string): void
  setOutput(name: string, value: string): void
  /** Saves a value for this action's post step. */
  saveState(name: string, value: string): void
  /** A value the main step saved (in the post step); '' when none. */
  state(name: string): string
  /** Runs `fn` inside a collapsible group of log lines. */
  group<T>(title: string, fn: () => Promise<T>): Promise<T>
  /** Appends Markdown to the job summary; one that cannot be written is a warning, not a failure. */
  summary(markdown: string): Promise<void>
  /** Marks the step failed with this one-line message. */
  fail(message: string): void
  /** Aborted when the runner cancels the step (SIGINT, then SIGTERM); dispose when done. */
  cancellation(): { signal: AbortSignal; dispose(): void }
}

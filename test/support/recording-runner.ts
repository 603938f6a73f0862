import type { Clock } from '../../src/runner/clock.js'
import { lineLogger } from '../../src/runner/logger.js'
import type { Runner } from '../../src/runner/runner.js'

export interface RecordingOptions {
  inputs?: Record<string, string>
  env?: NodeJS.ProcessEnv
  /** What an earlier step saved, as the runner hands it to a post step. */
  state?: Record<string, string>
  clock: Clock
  /** The title of the action's notices. */
  title?: string
  /** Called with each line written to the log. */
  onLine?: (line: string) => void
}

/** Workflow-command data as the runner reads it: %, CR and LF escaped. */
const data = (text: string): string =>
  text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
const property = (text: string): string => data(text).replace(/:/g, '%3A').replace(/,/g, '%2C')

/**
 * A Runner that records what the action did, and writes its log as the real runner would show it
 * (workflow commands included), so a test reads an in-process run as it reads the bundle's.
 */
export class RecordingRunner implements Runner {
  readonly env: NodeJS.ProcessEnv
  readonly clock: Clock
  readonly outputs: Record<string, string> = {}
  readonly saved: Record<string, string> = {}
  readonly masked: string[] = []
  transcript = ''
  summaryText = ''
  failure?: string
  private readonly controller = new AbortController()

  constructor(private readonly options: RecordingOptions) {
    this.env = options.env ?? {}
    this.clock = options.clock
  }

  readonly log = lineLogger({
    debug: message => this.write(`::debug::${data(message)}`),
    info: message => this.write(message),
    notice: message =>
      this.write(
        `::notice${this.options.title ? ` title=${property(this.options.title)}` : ''}::${data(message)}`
      ),
    warning: message => this.write(`::warning::${data(message)}`)
  })

  // Arrow functions: the actions pass these on unbound (runner.input as an InputReader).
  input = (name: string): string => this.options.inputs?.[name] ?? ''

  mask = (secret: string): void => {
    this.masked.push(secret)
    this.write(`::add-mask::${data(secret)}`)
  }

  setOutput = (name: string, value: string): void => {
    this.outputs[name] = value
  }

  saveState = (name: string, value: string): void => {
    this.saved[name] = value
  }

  state = (name: string): string => this.options.state?.[name] ?? ''

  group = async <T>(title: string, fn: () => Promise<T>): Promise<T> => {
    this.write(`::group::${title}`)
    try {
      return await fn()
    } finally {
      this.write('::endgroup::')
    }
  }

  summary = async (markdown: string): Promise<void> => {
    this.summaryText += markdown
  }

  fail = (message: string): void => {
    this.failure = message
    this.write(`::error::${data(message)}`)
  }

  cancellation = (): { signal: AbortSignal; dispose(): void } => ({
    signal: this.controller.signal,
    dispose: () => {}
  })

  /** What the runner's SIGINT or SIGTERM does to a step. */
  cancel(signal: NodeJS.Signals = 'SIGINT'): void {
    this.controller.abort(new Error(`Received ${signal}`))
  }

  private write(line: string): void {
    this.transcript += `${line}\n`
    this.options.onLine?.(line)
  }
}

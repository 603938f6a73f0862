import { CancelledError } from './errors.js'

/** Time as the domain code sees it; tests swap in fake timers. */
export interface Clock {
  /** Milliseconds on a clock that only moves forward. */
  now(): number
  /** Resolves after `ms`, or rejects with CancelledError as soon as `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>
}

/**
 * Monotonic milliseconds: deadlines and sleeps do not move when the runner's wall clock is set.
 * Not a date; use Date.now() for anything shown or compared with a server's time.
 */
export const systemClock: Clock = {
  now: () => Math.floor(performance.now()),
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new CancelledError('Cancelled.'))
      const onAbort = (): void => {
        clearTimeout(timer)
        reject(new CancelledError('Cancelled.'))
      }
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort)
        resolve()
      }, ms)
      signal?.addEventListener('abort', onAbort, { once: true })
    })
}

/** Where the domain code writes its log lines; main passes @actions/core's functions. */
export interface Logger {
  debug(message: string): void
  info(message: string): void
  warning(message: string): void
}

export const silentLogger: Logger = { debug() {}, info() {}, warning() {} }

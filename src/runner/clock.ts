import { CancelledError } from './errors.js'

/** Time as the domain code sees it; tests pass a virtual clock. */
export interface Clock {
  /** Milliseconds on a clock that only moves forward: deadlines and pauses. */
  now(): number
  /** Milliseconds since the epoch: what is shown, or compared with a server's dates. */
  wallNow(): number
  /** Resolves after `ms`, or rejects with CancelledError as soon as `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>
  /** A signal that aborts once `ms` have passed on this clock (a request's time limit), as AbortSignal.timeout does. */
  timeout(ms: number): AbortSignal
}

/** Monotonic deadlines (they do not move when the runner's wall clock is set) and real sleeps. */
export const systemClock: Clock = {
  now: () => Math.floor(performance.now()),
  wallNow: () => Date.now(),
  timeout: ms => AbortSignal.timeout(ms),
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

import { CancelledError } from '../../src/runner/errors.js'
import type { Clock } from '../../src/runner/clock.js'

/**
 * Time that moves with the real clock and jumps over every pause: `sleep(ms)` moves the clock on by
 * `ms` and resolves at once (after pending I/O has had its turn). A wait of 30 minutes takes
 * milliseconds, and a simulator given `now: clock.wallNow` sees the same time the action sees.
 * A time limit (`timeout`) ends after its time in real time, or at once when a test moves the clock
 * on past it (`advance`) while a request hangs; the pauses jumped over leave it alone, as a request
 * in flight meanwhile takes real time.
 */
export class VirtualClock implements Clock {
  private skipped = 0
  /** Every pause asked for, in order: what a test can assert about pacing. */
  readonly pauses: number[] = []
  private readonly waiters: { count: number; resolve: () => void }[] = []
  private readonly limits = new Set<{ at: number; end: () => void }>()

  now = (): number => Math.floor(performance.now()) + this.skipped
  wallNow = (): number => Date.now() + this.skipped

  timeout = (ms: number): AbortSignal => {
    const controller = new AbortController()
    const limit = {
      at: this.now() + ms,
      end: (): void => {
        clearTimeout(timer)
        this.limits.delete(limit)
        controller.abort(
          new DOMException('The operation was aborted due to timeout', 'TimeoutError')
        )
      }
    }
    // Real time moves this clock too: the limit also ends by itself, never later than `ms` from now.
    const timer = setTimeout(limit.end, ms).unref()
    this.limits.add(limit)
    return controller.signal
  }

  /** Moves the clock on by `ms` without a pause, ending the time limits it passes. */
  advance(ms: number): void {
    this.skipped += Math.max(0, ms)
    for (const limit of [...this.limits]) if (limit.at <= this.now()) limit.end()
  }

  sleep = (ms: number, signal?: AbortSignal): Promise<void> => this.move(ms, signal)

  /** A pause jumped over: the clock moves on by `ms`. */
  protected async move(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw new CancelledError('Cancelled.')
    this.paused(ms)
    this.skipped += Math.max(0, ms)
    await new Promise(resolve => setImmediate(resolve))
    if (signal?.aborted) throw new CancelledError('Cancelled.')
  }

  /** Resolves once `count` pauses in all have been asked for: at once if they have. */
  pausesReach(count: number): Promise<void> {
    if (this.pauses.length >= count) return Promise.resolve()
    return new Promise(resolve => this.waiters.push({ count, resolve }))
  }

  /** The sum of the pauses asked for from the `from`-th on: the time a run spent waiting. */
  waitedSince(from: number): number {
    return this.pauses.slice(from).reduce((sum, ms) => sum + ms, 0)
  }

  protected paused(ms: number): void {
    this.pauses.push(ms)
    for (const w of [...this.waiters])
      if (this.pauses.length >= w.count) {
        this.waiters.splice(this.waiters.indexOf(w), 1)
        w.resolve()
      }
  }
}

/**
 * A clock whose pauses last until the run is cancelled: for tests that cancel a run while it waits,
 * so the wait cannot end on its own first. Pauses of at most `passing` ms (the second between two
 * GitHub writes of a token) pass as on a VirtualClock: a run is held where it waits, not where it
 * paces its writes.
 */
export class HeldClock extends VirtualClock {
  constructor(private readonly passing = 1000) {
    super()
  }

  override sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
    ms <= this.passing
      ? this.move(ms, signal)
      : new Promise((_, reject) => {
          this.paused(ms)
          const cancelled = (): void => reject(new CancelledError('Cancelled.'))
          if (signal?.aborted) return cancelled()
          signal?.addEventListener('abort', cancelled, { once: true })
        })
}

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError, RateLimitError } from '../../src/mintlify/errors.js'
import {
  type Attempt,
  DEFAULT_BACKOFF,
  backoffDelay,
  parseRetryAfter,
  withRetries
} from '../../src/mintlify/retry.js'
import { systemClock } from '../../src/runner/clock.js'

describe('backoffDelay', () => {
  const policy = { ...DEFAULT_BACKOFF, minDelayMs: 250, baseDelayMs: 500, maxDelayMs: 4000 }
  it('doubles the ceiling each attempt, up to the cap', () => {
    expect([1, 2, 3, 4, 5, 6].map(n => backoffDelay(n, policy, () => 0.999999))).toEqual([
      499, 999, 1999, 3999, 3999, 3999
    ])
  })
  it('uses full jitter above the floor, never less than the floor', () => {
    expect(backoffDelay(3, policy, () => 0)).toBe(250)
    expect(backoffDelay(3, policy, () => 0.5)).toBe(250 + 875)
    expect(backoffDelay(1, { ...policy, minDelayMs: 1000 }, () => 0.9)).toBe(1000)
  })
})

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-21T12:00:00Z')
  it('reads delta-seconds', () => expect(parseRetryAfter('120', now)).toBe(120_000))
  it('reads an HTTP-date', () =>
    expect(parseRetryAfter('Sat, 21 Nov 2026 12:00:30 GMT', now)).toBe(30_000))
  it('treats a past date as now', () =>
    expect(parseRetryAfter('Sat, 21 Nov 2026 11:00:00 GMT', now)).toBe(0))
  it('reads the obsolete HTTP-date forms too', () => {
    expect(parseRetryAfter('Saturday, 21-Nov-26 12:00:10 GMT', now)).toBe(10_000)
    expect(parseRetryAfter('Sat Nov 21 12:00:20 2026', now)).toBe(20_000)
  })
  it('ignores what it cannot read, and what is neither whole seconds nor an HTTP-date', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined()
    expect(parseRetryAfter('soon', now)).toBeUndefined()
    expect(parseRetryAfter('', now)).toBeUndefined()
    // Date.parse reads these as dates (1.5 as January 2001): not a Retry-After.
    expect(parseRetryAfter('1.5', now)).toBeUndefined()
    expect(parseRetryAfter('-5', now)).toBeUndefined()
    expect(parseRetryAfter('2026-11-21', now)).toBeUndefined()
  })
})

describe('withRetries (fake timers)', () => {
  beforeEach(() => {
    vi.useFakeTimers()
    vi.setSystemTime(Date.parse('2026-11-21T12:00:00Z'))
  })
  afterEach(() => vi.useRealTimers())

  const transient = (retryAfterMs?: number): Attempt<string> => ({
    ok: false,
    retry: true,
    error: new ApiError('HTTP 503', 503, true),
    retryAfterMs
  })
  const options = (deadlineInMs: number, write = false) => ({
    deadline: systemClock.now() + deadlineInMs,
    write,
    policy: { minDelayMs: 0, baseDelayMs: 1000, maxDelayMs: 8000, maxWriteAttempts: 3 },
    clock: systemClock,
    random: () => 0.5
  })

  it('retries with growing waits until it succeeds', async () => {
    const times: number[] = []
    const start = Date.now()
    const attempt = vi.fn(async (n: number) => {
      times.push(Date.now() - start)
      return n < 4 ? transient() : ({ ok: true, value: 'done' } as const)
    })
    const promise = withRetries(attempt, options(60_000))
    await vi.runAllTimersAsync()
    await expect(promise).resolves.toBe('done')
    expect(times).toEqual([0, 500, 1500, 3500])
  })

  it('honours Retry-After instead of its own backoff', async () => {
    const start = Date.now()
    const times: number[] = []
    const attempt = async (n: number): Promise<Attempt<string>> => {
      times.push(Date.now() - start)
      return n === 1 ? transient(7000) : { ok: true, value: 'ok' }
    }
    const promise = withRetries(attempt, options(60_000))
    await vi.runAllTimersAsync()
    await expect(promise).resolves.toBe('ok')
    expect(times).toEqual([0, 7000])
  })

  it('fails at once with "rate limited until" when Retry-After runs past the deadline', async () => {
    const attempt = vi.fn(async () => transient(120_000))
    const promise = withRetries(attempt, options(60_000))
    const settled = expect(promise).rejects.toThrow(/rate limited until 2026-11-21T12:02:00.000Z/)
    await vi.runAllTimersAsync()
    await settled
    await promise.catch(e => expect(e).toBeInstanceOf(RateLimitError))
    expect(attempt).toHaveBeenCalledTimes(1)
    expect(Date.now()).toBe(Date.parse('2026-11-21T12:00:00Z'))
  })

  it('stops when the next wait would pass the deadline, with the last error', async () => {
    const attempt = vi.fn(async () => transient())
    const promise = withRetries(attempt, options(2000))
    const settled = expect(promise).rejects.toThrow('HTTP 503')
    await vi.runAllTimersAsync()
    await settled
    // Waits of 500 and 1000 fit in 2 s; the next (2000) would not.
    expect(attempt).toHaveBeenCalledTimes(3)
  })

  it('caps writes at maxWriteAttempts', async () => {
    const attempt = vi.fn(async () => transient())
    const promise = withRetries(attempt, options(600_000, true))
    const settled = expect(promise).rejects.toThrow('HTTP 503')
    await vi.runAllTimersAsync()
    await settled
    expect(attempt).toHaveBeenCalledTimes(3)
  })

  it('does not retry what it is told not to', async () => {
    const attempt = vi.fn(async (): Promise<Attempt<string>> => ({
      ok: false,
      retry: false,
      error: new ApiError('HTTP 400', 400)
    }))
    await expect(withRetries(attempt, options(60_000))).rejects.toThrow('HTTP 400')
    expect(attempt).toHaveBeenCalledTimes(1)
  })

  it.each(['0', 'a past date', '1.5'])(
    'never retries sooner than the backoff floor, whatever Retry-After says (%s)',
    async header => {
      const start = Date.now()
      const times: number[] = []
      const retryAfterMs = header === '0' ? 0 : header === '1.5' ? parseRetryAfter('1.5', start) : 0
      const attempt = async (n: number): Promise<Attempt<string>> => {
        times.push(Date.now() - start)
        return n < 4 ? transient(retryAfterMs) : { ok: true, value: 'ok' }
      }
      const base = options(600_000)
      const promise = withRetries(attempt, {
        ...base,
        policy: { ...base.policy, minDelayMs: 1000 },
        random: () => 0
      })
      await vi.runAllTimersAsync()
      await expect(promise).resolves.toBe('ok')
      expect(times).toEqual([0, 1000, 2000, 3000])
    }
  )

  it('says how long when a Retry-After is too far off to show as a date', async () => {
    const attempt = vi.fn(async () => transient(9e15))
    const promise = withRetries(attempt, options(60_000))
    const settled = expect(promise).rejects.toThrow(/rate limited for \d+ hours/)
    await vi.runAllTimersAsync()
    await settled
  })

  it('stops waiting when cancelled', async () => {
    const controller = new AbortController()
    const attempt = vi.fn(async () => transient(10_000))
    const promise = withRetries(attempt, { ...options(60_000), signal: controller.signal })
    const settled = expect(promise).rejects.toThrow('Cancelled')
    await vi.advanceTimersByTimeAsync(100)
    controller.abort()
    await settled
    expect(attempt).toHaveBeenCalledTimes(1)
  })
})

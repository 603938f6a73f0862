import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { AgentJob } from '../../src/mintlify/agent-jobs.js'
import { ApiError, AuthError, RateLimitError } from '../../src/mintlify/errors.js'
import { systemClock } from '../../src/runner/clock.js'
import { type Logger } from '../../src/runner/logger.js'
import { nextCheckAt, waitForJob } from '../../src/agent/wait.js'

function recorder(): Logger & { lines: string[]; warnings: string[] } {
  const lines: string[] = []
  const warnings: string[] = []
  return {
    lines,
    warnings,
    debug() {},
    notice: m => void lines.push(m),
    info: m => void lines.push(m),
    warning: m => void warnings.push(m)
  }
}

/** A job whose status, read at time t (ms since start), is `statusAt(t)`. */
function jobAt(statusAt: (t: number) => string, start: number) {
  const reads: number[] = []
  const fetchJob = vi.fn(async (): Promise<AgentJob> => {
    const t = systemClock.now() - start
    reads.push(t)
    const status = statusAt(t)
    return {
      id: 'job_1',
      status,
      prLink: status === 'completed' ? 'https://github.com/o/r/pull/1' : null
    }
  })
  return { fetchJob, reads }
}

describe('nextCheckAt', () => {
  const checks = (interval: number, count: number): number[] => {
    const times: number[] = []
    let t = 0
    for (let i = 0; i < count; i++) times.push((t = nextCheckAt(t, interval, i > 0)))
    return times
  }
  it('checks once after 4 s, then on multiples of the poll interval', () => {
    expect(checks(10_000, 5)).toEqual([4000, 10_000, 20_000, 30_000, 40_000])
  })
  it('never waits longer than a short poll interval, nor less than a second', () => {
    expect(checks(3000, 4)).toEqual([3000, 6000, 9000, 12_000])
    expect(nextCheckAt(19_500, 10_000, true)).toBe(30_000)
    expect(nextCheckAt(12_345, 10_000, true)).toBe(20_000)
  })
  it('does not check twice at 4 s when the first check ran a little early', () => {
    // Timers may fire a millisecond early; the check after one must wait for the next boundary.
    expect(nextCheckAt(3999, 10_000, false)).toBe(4000)
    expect(nextCheckAt(3999, 10_000, true)).toBe(10_000)
  })
})

describe('waitForJob (fake timers)', () => {
  let start: number
  beforeEach(() => {
    vi.useFakeTimers()
    start = systemClock.now()
  })
  afterEach(() => vi.useRealTimers())

  const options = (log: Logger, extra: Partial<Parameters<typeof waitForJob>[2]> = {}) => ({
    deadline: start + 30 * 60_000,
    pollIntervalMs: 10_000,
    clock: systemClock,
    log,
    ...extra
  })
  const active: AgentJob = { id: 'job_1', status: 'active' }

  it('notices a fast job within a second and a half', async () => {
    const log = recorder()
    const { fetchJob, reads } = jobAt(t => (t >= 2500 ? 'completed' : 'active'), start)
    const promise = waitForJob(active, fetchJob, options(log))
    await vi.runAllTimersAsync()
    const result = await promise
    expect(result.end).toBe('terminal')
    expect(result.job.status).toBe('completed')
    expect((reads.at(-1) as number) - 2500).toBeLessThanOrEqual(1500)
  })

  it('logs status changes and a heartbeat about once a minute, not every poll', async () => {
    const log = recorder()
    const { fetchJob } = jobAt(t => (t >= 5 * 60_000 ? 'failed' : 'active'), start)
    const promise = waitForJob(active, fetchJob, options(log))
    await vi.runAllTimersAsync()
    const result = await promise
    expect(result.end).toBe('terminal')
    expect(fetchJob.mock.calls.length).toBeGreaterThan(25)
    const heartbeats = log.lines.filter(l => l.includes('still active'))
    expect(heartbeats.length).toBeGreaterThanOrEqual(4)
    expect(heartbeats.length).toBeLessThanOrEqual(5)
    expect(log.lines.filter(l => l.includes('is failed'))).toHaveLength(1)
  })

  it('never pauses longer than the poll interval', async () => {
    const { fetchJob, reads } = jobAt(t => (t >= 120_000 ? 'completed' : 'active'), start)
    const promise = waitForJob(active, fetchJob, options(recorder()))
    await vi.runAllTimersAsync()
    await promise
    const gaps = reads.map((t, i) => t - (reads[i - 1] ?? 0))
    expect(Math.max(...gaps)).toBeLessThanOrEqual(10_000)
  })

  it('makes one check per mark even when timers fire a little early', async () => {
    const { fetchJob, reads } = jobAt(t => (t >= 35_000 ? 'completed' : 'active'), start)
    const early = { ...systemClock, sleep: (ms: number) => systemClock.sleep(Math.max(0, ms - 1)) }
    const promise = waitForJob(active, fetchJob, options(recorder(), { clock: early }))
    await vi.runAllTimersAsync()
    await promise
    expect(reads).toEqual([3999, 9999, 19_999, 29_999, 39_999])
  })

  it('ends with timeout at the deadline', async () => {
    const { fetchJob } = jobAt(() => 'active', start)
    const promise = waitForJob(active, fetchJob, options(recorder(), { deadline: start + 45_000 }))
    await vi.runAllTimersAsync()
    const result = await promise
    expect(result.end).toBe('timeout')
    expect(systemClock.now() - start).toBe(45_000)
  })

  it('makes the last check while it still gets a fair time limit before the deadline', async () => {
    // The defaults: timeout a multiple of the poll interval, so the next mark is the deadline itself.
    const { fetchJob, reads } = jobAt(() => 'active', start)
    const promise = waitForJob(active, fetchJob, options(recorder(), { deadline: start + 30_000 }))
    await vi.runAllTimersAsync()
    expect((await promise).end).toBe('timeout')
    // The mark at 30 s is the deadline itself: the last check comes 5 s before it instead.
    expect(reads).toEqual([4000, 10_000, 20_000, 25_000])
    expect(systemClock.now() - start).toBe(30_000)
  })

  it.each([-3_600_000, 3_600_000])(
    'keeps its deadline when the wall clock is set by %i ms',
    async shift => {
      const { fetchJob } = jobAt(() => 'active', start)
      const promise = waitForJob(
        active,
        fetchJob,
        options(recorder(), { deadline: start + 30_000 })
      )
      await vi.advanceTimersByTimeAsync(5000)
      vi.setSystemTime(Date.now() + shift)
      await vi.advanceTimersByTimeAsync(24_000)
      let ended = false
      void promise.then(() => (ended = true))
      await vi.advanceTimersByTimeAsync(0)
      expect(ended).toBe(false)
      await vi.advanceTimersByTimeAsync(1000)
      expect((await promise).end).toBe('timeout')
      expect(systemClock.now() - start).toBe(30_000)
    }
  )

  it('treats an unknown status as running, with one warning', async () => {
    const log = recorder()
    const { fetchJob } = jobAt(t => (t >= 20_000 ? 'completed' : 'queued'), start)
    const promise = waitForJob(active, fetchJob, options(log))
    await vi.runAllTimersAsync()
    expect((await promise).end).toBe('terminal')
    expect(log.warnings).toEqual([
      expect.stringContaining("status 'queued', which this action does not know")
    ])
  })

  it('keeps waiting through transient errors while time remains', async () => {
    const log = recorder()
    let calls = 0
    const fetchJob = vi.fn(async (): Promise<AgentJob> => {
      calls++
      if (calls <= 3) throw new ApiError('HTTP 502', 502, true)
      return { id: 'job_1', status: 'completed' }
    })
    const promise = waitForJob(active, fetchJob, options(log))
    await vi.runAllTimersAsync()
    expect((await promise).end).toBe('terminal')
    expect(log.warnings).toHaveLength(3)
  })

  it('reports the last transient error when the deadline comes', async () => {
    const fetchJob = vi.fn(async (): Promise<AgentJob> => {
      throw new ApiError('HTTP 503', 503, true)
    })
    const promise = waitForJob(active, fetchJob, options(recorder(), { deadline: start + 20_000 }))
    await vi.runAllTimersAsync()
    const result = await promise
    expect(result.end).toBe('timeout')
    expect(result.lastError?.message).toBe('HTTP 503')
  })

  it('fails at once on an error that waiting cannot fix', async () => {
    const auth = vi.fn(async (): Promise<AgentJob> => {
      throw new AuthError('bad key', 401)
    })
    const promise = waitForJob(active, auth, options(recorder()))
    const settled = expect(promise).rejects.toThrow('bad key')
    await vi.runAllTimersAsync()
    await settled
    const limited = vi.fn(async (): Promise<AgentJob> => {
      throw new RateLimitError('rate limited until later')
    })
    const promise2 = waitForJob(active, limited, options(recorder()))
    const settled2 = expect(promise2).rejects.toThrow('rate limited until')
    await vi.runAllTimersAsync()
    await settled2
  })

  it('returns cancelled as soon as the signal aborts', async () => {
    const controller = new AbortController()
    const { fetchJob } = jobAt(() => 'active', start)
    const promise = waitForJob(active, fetchJob, options(recorder(), { signal: controller.signal }))
    await vi.advanceTimersByTimeAsync(5_500)
    controller.abort()
    const result = await promise
    expect(result.end).toBe('cancelled')
    expect(systemClock.now() - start).toBe(5_500)
  })

  it('does not poll a job that is already terminal', async () => {
    const { fetchJob } = jobAt(() => 'active', start)
    const result = await waitForJob(
      { id: 'job_1', status: 'archived' },
      fetchJob,
      options(recorder())
    )
    expect(result).toMatchObject({ end: 'terminal', polls: 0 })
    expect(fetchJob).not.toHaveBeenCalled()
  })

  describe('after a follow-up', () => {
    const completed: AgentJob = {
      id: 'job_1',
      status: 'completed',
      prLink: 'https://github.com/o/r/pull/1'
    }
    const followUp = { graceMs: 60_000 }

    it('does not take the status from before the message: waits until it was seen active', async () => {
      const log = recorder()
      const { fetchJob, reads } = jobAt(
        t => (t >= 15_000 && t < 35_000 ? 'active' : 'failed'),
        start
      )
      const promise = waitForJob(completed, fetchJob, options(log, { followUp }))
      await vi.runAllTimersAsync()
      const result = await promise
      expect(result).toMatchObject({ end: 'terminal', followUp: 'seen', job: { status: 'failed' } })
      expect(reads).toEqual([4000, 10_000, 20_000, 30_000, 40_000])
      expect(log.lines).toContain(
        'Job job_1 is working on the follow-up (seen active 20s after the message).'
      )
    })

    it('counts from the service’s answer: a short follow-up recorded for 5 s is checked at once, and seen', async () => {
      const log = recorder()
      // The job works on the message from 0 s to 6 s; the wait begins 5 s after the answer.
      const { fetchJob, reads } = jobAt(t => (t < 6000 ? 'active' : 'completed'), start - 5000)
      const promise = waitForJob(
        completed,
        fetchJob,
        options(log, { followUp, since: systemClock.now() - 5000 })
      )
      await vi.runAllTimersAsync()
      expect(await promise).toMatchObject({ end: 'terminal', followUp: 'seen' })
      // At once (5 s after the answer), not 4 s after the wait began, when the job was done.
      expect(reads).toEqual([5000, 10_000])
    })

    it('takes a terminal status once the grace period has passed without seeing it active', async () => {
      const log = recorder()
      const { fetchJob, reads } = jobAt(() => 'completed', start)
      const promise = waitForJob(completed, fetchJob, options(log, { followUp }))
      await vi.runAllTimersAsync()
      expect(await promise).toMatchObject({ end: 'terminal', followUp: 'grace' })
      expect(reads.at(-1)).toBe(60_000)
      expect(log.lines.at(-1)).toMatch(
        /^Job job_1 was not seen working on the follow-up within 1m of the message; reporting it as it stands \(completed\)\./
      )
    })

    it('checks at the end of the grace period whatever the poll interval', async () => {
      const { fetchJob, reads } = jobAt(() => 'completed', start)
      const promise = waitForJob(
        completed,
        fetchJob,
        options(recorder(), { followUp, pollIntervalMs: 3_600_000 })
      )
      await vi.runAllTimersAsync()
      expect(await promise).toMatchObject({ followUp: 'grace' })
      expect(reads).toEqual([4000, 60_000])
    })

    it('says the follow-up was unconfirmed when the deadline comes first', async () => {
      const { fetchJob } = jobAt(() => 'completed', start)
      const promise = waitForJob(
        completed,
        fetchJob,
        options(recorder(), { followUp, deadline: start + 30_000 })
      )
      await vi.runAllTimersAsync()
      expect(await promise).toMatchObject({ end: 'timeout', followUp: 'unconfirmed' })
    })
  })
})

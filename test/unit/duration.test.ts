import { describe, expect, it } from 'vitest'
import { durationInput, formatDuration, parseDuration } from '../../src/runner/duration.js'
import { InputError } from '../../src/runner/errors.js'

describe('parseDuration', () => {
  it.each([
    ['90s', 90_000],
    ['15m', 900_000],
    ['1h', 3_600_000],
    ['1h30m', 5_400_000],
    ['1h 30m'.replace(' ', ''), 5_400_000],
    ['500ms', 500],
    ['1m30s', 90_000],
    [' 10S ', 10_000],
    ['14d', 14 * 86_400_000],
    ['2w', 14 * 86_400_000],
    ['1d12h', 36 * 3_600_000]
  ])('reads %s', (text, ms) => expect(parseDuration(text)).toBe(ms))

  it.each(['', 'abc', '10x', '1h30', 'h', '-5', '5 m', '1h-30m', 'm5', '45', '600', '2.5', ' 0 '])(
    'refuses %j',
    text => expect(parseDuration(text)).toBeUndefined()
  )
})

describe('durationInput', () => {
  it('names the input and what it accepts', () => {
    expect(() => durationInput('timeout', 'soon', 1000, 10_000)).toThrow(InputError)
    expect(() => durationInput('timeout', 'soon', 1000, 10_000)).toThrow(
      /Input 'timeout' must be a duration such as 90s.*got 'soon'/
    )
  })
  // `timeout: 45` beside `timeout-minutes: 45` once meant 45 seconds: a number needs its unit.
  it.each(['45', ' 45 ', '2.5', '0'])('refuses the bare number %j, saying how to write it', raw => {
    const n = raw.trim()
    expect(() => durationInput('timeout', raw, 1000, 72 * 3_600_000)).toThrow(InputError)
    expect(() => durationInput('timeout', raw, 1000, 72 * 3_600_000)).toThrow(
      `Input 'timeout' needs a unit: write '${n}m' for ${n} minutes or '${n}s' for ${n} seconds; got '${raw}'.`
    )
  })
  it('checks the range', () => {
    expect(() => durationInput('poll-interval', '0s', 1000, 10_000)).toThrow(
      /between 1s and 10s; got '0s'/
    )
    expect(durationInput('poll-interval', '5s', 1000, 10_000)).toBe(5000)
  })
})

describe('formatDuration', () => {
  it.each([
    [0, '0s'],
    [1500, '1.5s'],
    [45_000, '45s'],
    [90_000, '1m 30s'],
    [3_723_000, '1h 2m 3s'],
    [3_600_000, '1h']
  ])('%d ms → %s', (ms, text) => expect(formatDuration(ms)).toBe(text))
})

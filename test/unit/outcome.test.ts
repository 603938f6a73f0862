import { describe, expect, it } from 'vitest'
import { type FailOnWord, type Result, failingWord, resultOf } from '../../src/agent/outcome.js'

describe('resultOf', () => {
  it.each([
    [{ status: 'completed', prLink: 'https://github.com/o/r/pull/1' }, 'terminal', 'pr-opened'],
    [{ status: 'completed', prLink: null }, 'terminal', 'no-changes'],
    [{ status: 'failed' }, 'terminal', 'failed'],
    [{ status: 'archived' }, 'terminal', 'archived'],
    [{ status: 'active' }, 'timeout', 'timed-out'],
    [{ status: 'active' }, 'cancelled', 'cancelled'],
    [{ status: 'active' }, 'not-waited', 'started'],
    [{ status: 'completed', prLink: 'https://x/pull/2' }, 'not-waited', 'pr-opened']
  ] as const)('%j ended by %s → %s', (job, end, result) => {
    expect(resultOf({ id: 'j', ...job }, end)).toBe(result)
  })
})

describe('failingWord', () => {
  const on = (...words: FailOnWord[]) => new Set(words)
  it.each([
    ['failed', on('failed', 'timeout'), 'failed'],
    ['timed-out', on('failed', 'timeout'), 'timeout'],
    ['archived', on('failed', 'timeout'), undefined],
    ['archived', on('archived'), 'archived'],
    ['no-changes', on('failed', 'timeout'), undefined],
    ['no-changes', on('no-pr'), 'no-pr'],
    ['failed', on('no-pr'), 'no-pr'],
    ['pr-opened', on('failed', 'timeout', 'archived', 'no-pr'), undefined],
    ['started', on('no-pr'), undefined],
    ['failed', on(), undefined]
  ] as [Result, Set<FailOnWord>, FailOnWord | undefined][])(
    '%s with %j → %s',
    (result, failOn, word) => {
      expect(failingWord(result, failOn)).toBe(word)
    }
  )
})

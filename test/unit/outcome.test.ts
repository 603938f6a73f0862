import { describe, expect, it } from 'vitest'
import {
  type Decision,
  type FailOnWord,
  type Result,
  type RunOutcome,
  decisionOf,
  failingWord,
  nothingStarted,
  resultOf,
  resultWord,
  whyNothing
} from '../../src/agent/outcome.js'

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

describe('one outcome, its result and decision outputs', () => {
  it.each([
    [{ kind: 'skipped', why: 'No label.' }, 'skipped', 'skip', 'No label.'],
    [{ kind: 'waiting', why: 'Awaiting approval.' }, 'waiting', 'skip', 'Awaiting approval.'],
    [{ kind: 'dry-run', decision: 'skip', why: 'Over budget.' }, 'dry-run', 'skip', 'Over budget.'],
    [
      { kind: 'dry-run', decision: 'follow-up', prompt: 'Docs.' },
      'dry-run',
      'follow-up',
      undefined
    ],
    [{ kind: 'job', decision: 'new-job', result: 'pr-opened' }, 'pr-opened', 'new-job', undefined],
    [{ kind: 'job', decision: 'follow-up' }, undefined, 'follow-up', undefined],
    [{ kind: 'failed', cancelled: true }, 'cancelled', undefined, undefined],
    [{ kind: 'failed', cancelled: false }, undefined, undefined, undefined]
  ] as [RunOutcome, Result | undefined, Decision | undefined, string | undefined][])(
    '%j → result %s, decision %s',
    (outcome, result, decision, why) => {
      expect(resultWord(outcome)).toBe(result)
      expect(decisionOf(outcome)).toBe(decision)
      expect(whyNothing(outcome)).toBe(why)
    }
  )

  it('a run that starts nothing is skipped, waiting with approval, and a dry run in a dry run', () => {
    expect(nothingStarted('Why.', false, false)).toEqual({ kind: 'skipped', why: 'Why.' })
    expect(nothingStarted('Why.', true, false)).toEqual({ kind: 'waiting', why: 'Why.' })
    expect(nothingStarted('Why.', true, true)).toEqual({
      kind: 'dry-run',
      decision: 'skip',
      why: 'Why.'
    })
  })
})

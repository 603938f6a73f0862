import { describe, expect, it } from 'vitest'
import { RateLimitError as GitHubRateLimitError } from '../../src/github/limits.js'
import {
  AmbiguousWriteError,
  AnswerTooLargeError,
  ApiError,
  AuthError,
  RequestCapReachedError,
  NotFoundError,
  RateLimitError,
  UnreachableError
} from '../../src/mintlify/errors.js'
import {
  CancelledError,
  ExplainedError,
  InputError,
  describeError
} from '../../src/runner/errors.js'
import { IncompleteExportError } from '../../src/visitors/export.js'

describe('the explained errors: each kind is named by its class, without repeating the name', () => {
  it.each([
    ['ExplainedError', new ExplainedError('m')],
    ['InputError', new InputError('m')],
    ['CancelledError', new CancelledError('m')],
    ['ApiError', new ApiError('m', 500, true)],
    ['AuthError', new AuthError('m', 401)],
    ['UnreachableError', new UnreachableError('m', undefined, true)],
    ['NotFoundError', new NotFoundError('m', 404)],
    ['AnswerTooLargeError', new AnswerTooLargeError('m')],
    ['RateLimitError', new RateLimitError('m')],
    ['AmbiguousWriteError', new AmbiguousWriteError('m')],
    ['RequestCapReachedError', new RequestCapReachedError('m')],
    ['RateLimitError', new GitHubRateLimitError('m')],
    ['IncompleteExportError', new IncompleteExportError('m')]
  ])('%s', (name, error) => {
    expect(error.name).toBe(name)
    expect(String(error)).toBe(`${name}: m`)
    expect(error).toBeInstanceOf(ExplainedError)
  })

  it('keeps what the service errors carry, and a cause', () => {
    const limited = new RateLimitError('wait')
    expect([limited.status, limited.transient]).toEqual([429, true])
    const spent = new RequestCapReachedError('spent')
    expect([spent.status, spent.transient]).toEqual([undefined, true])
    const cause = new Error('below')
    expect(new InputError('m', { cause }).cause).toBe(cause)
  })

  it('a kind declared elsewhere is named by its own class too, and reported as it is', () => {
    class QuietHoursError extends InputError {}
    const error = new QuietHoursError('Not now.')
    expect(error.name).toBe('QuietHoursError')
    expect(describeError(error, [])).toBe('Not now.')
  })
})

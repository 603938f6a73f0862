import { expect } from 'vitest'
import type { RunResult } from './run-action.js'

/** Everything a user could see: the log (less the runner's own mask commands), outputs and summary. */
export function visible(result: RunResult): string {
  return [
    result.log.replace(/^::add-mask::.*$/gm, ''),
    JSON.stringify(result.outputs),
    result.summary
  ].join('\n')
}

/** Failed with this one-line error, no stack trace, and none of the secrets shown. */
export function expectCleanFailure(result: RunResult, message: RegExp, secrets: string[]): void {
  expect(result.code).toBe(1)
  expect(result.log).toMatch(new RegExp(`::error::${message.source}`))
  expect(result.log).not.toMatch(/\n\s+at .+:\d+:\d+/)
  for (const secret of secrets) expect(visible(result)).not.toContain(secret)
}

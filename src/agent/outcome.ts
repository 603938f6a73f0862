import type { AgentJob } from '../mintlify/agent-jobs.js'

/** One word for how the step ended; users branch on it in later steps. */
export type Result =
  | 'pr-opened'
  | 'no-changes'
  | 'failed'
  | 'archived'
  | 'timed-out'
  | 'started'
  | 'cancelled'
  | 'skipped'
  | 'dry-run'
  | 'waiting'

export const FAIL_ON_WORDS = ['failed', 'archived', 'timeout', 'no-pr'] as const
export type FailOnWord = (typeof FAIL_ON_WORDS)[number]

const TERMINAL_STATUSES = ['completed', 'archived', 'failed'] as const
export const KNOWN_STATUSES = ['active', ...TERMINAL_STATUSES] as const

export function isTerminal(status: string | undefined): boolean {
  return (TERMINAL_STATUSES as readonly (string | undefined)[]).includes(status)
}

/** How waiting ended, before it is turned into a result word. */
export type WaitEnd = 'terminal' | 'timeout' | 'cancelled' | 'not-waited'

export function resultOf(job: AgentJob, end: WaitEnd): Result {
  if (end === 'cancelled') return 'cancelled'
  if (end === 'timeout') return 'timed-out'
  switch (job.status) {
    case 'failed':
      return 'failed'
    case 'archived':
      return 'archived'
    case 'completed':
      return job.prLink ? 'pr-opened' : 'no-changes'
    default:
      return 'started'
  }
}

/** Which `fail-on` word, if any, makes this result fail the step. */
export function failingWord(
  result: Result,
  failOn: ReadonlySet<FailOnWord>
): FailOnWord | undefined {
  if (result === 'failed' && failOn.has('failed')) return 'failed'
  if (result === 'archived' && failOn.has('archived')) return 'archived'
  if (result === 'timed-out' && failOn.has('timeout')) return 'timeout'
  // no-pr judges a job that was waited for to its end (or the time limit), nothing else.
  const judged = !['started', 'cancelled', 'skipped', 'dry-run', 'waiting'].includes(result)
  if (failOn.has('no-pr') && judged && result !== 'pr-opened') return 'no-pr'
  return undefined
}

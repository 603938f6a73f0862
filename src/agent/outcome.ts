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

/** What a run decided: a new job, a follow-up to an earlier one, or nothing. */
export type Decision = 'new-job' | 'follow-up' | 'skip'

/**
 * How a run ends, in one value: the `result`, `decision` and `prompt` outputs, the summary's
 * headline and its reason come from it (report.ts).
 */
export type RunOutcome =
  /** Nothing started, and why; `waiting`: the changes wait on the dashboard for approval. */
  | { kind: 'skipped' | 'waiting'; why: string }
  /** Nothing written: what the run would do (why nothing, when it would start nothing), the prompt. */
  | { kind: 'dry-run'; decision: Decision; why?: string; prompt?: string }
  /**
   * A job was started, followed up or waited for: `result` is where it ended or stood, none when
   * the step failed before the service answered.
   */
  | { kind: 'job'; decision?: 'new-job' | 'follow-up'; result?: Result }
  /** The step failed, or was cancelled, before it decided anything. */
  | { kind: 'failed'; cancelled: boolean }

/** A run that started nothing, and why: in a dry run, that it would start nothing. */
export function nothingStarted(why: string, waiting: boolean, dryRun: boolean): RunOutcome {
  if (dryRun) return { kind: 'dry-run', decision: 'skip', why }
  return { kind: waiting ? 'waiting' : 'skipped', why }
}

/** The `result` output's word for an outcome. */
export function resultWord(outcome: RunOutcome): Result | undefined {
  switch (outcome.kind) {
    case 'job':
      return outcome.result
    case 'failed':
      return outcome.cancelled ? 'cancelled' : undefined
    default:
      return outcome.kind
  }
}

/** The `decision` output for an outcome. */
export function decisionOf(outcome: RunOutcome): Decision | undefined {
  switch (outcome.kind) {
    case 'skipped':
    case 'waiting':
      return 'skip'
    case 'failed':
      return undefined
    default:
      return outcome.decision
  }
}

/** Why nothing was started, when nothing was. */
export const whyNothing = (outcome: RunOutcome): string | undefined =>
  'why' in outcome ? outcome.why : undefined

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

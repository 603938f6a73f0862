import { type Connection, parseId, readConnection } from '../mintlify/connection.js'
import { DAY_MS, HOUR_MS, durationInput } from '../runner/duration.js'
import {
  type InputReader,
  type Masker,
  parseBoolean,
  parseChoice,
  parseInteger,
  readSecret
} from '../runner/inputs.js'
import { readWorkspaceFile, workspaceOf } from '../runner/workspace.js'
import { InputError } from '../runner/errors.js'
import type { Permission } from '../github/permission.js'
import type { Policy, QuietHours } from '../policy/policy.js'
import type { PathFilter } from '../policy/path-filter.js'
import type { CodeRepository } from '../policy/code-repositories.js'
import type { CreditBudget, JobBudget, Limits } from '../policy/budget.js'
import type { ApprovalMode, FoldMode, ReviewerMode } from '../policy/choices.js'
import { Defaults, Input } from './names.js'
import { FAIL_ON_WORDS, type FailOnWord } from './outcome.js'

// The allowed values of the inputs and the settings each flow takes live here, with their
// reading: the flows import their types from the settings, never the settings from a flow. A
// run's settings are its action's inputs (readInputs) over the policy file (withPolicy).

export const COMMENT_MODES = ['auto', 'true', 'false'] as const
export type CommentMode = (typeof COMMENT_MODES)[number]

/** `follow-reviews`: reviews that start with the trigger phrase, or every review with text. */
export const REVIEW_MODES = ['phrase', 'all'] as const
export type ReviewMode = (typeof REVIEW_MODES)[number]

export const IMPACT_COMMENT_MODES = ['pr', 'dashboard'] as const

/** The event type a code repository's repository_dispatch carries to the docs repository. */
export const DISPATCH_TYPE = 'docs-agent'

/** What decides what a run does with its trigger: the inputs' prompt, label and phrase, the policy's gate. */
export interface TriggerSettings {
  /** The prompt to send: for a new job, or as a follow-up when `jobId` is set. */
  prompt?: string
  /** The policy file's standing instruction, sent before every request. */
  instructions?: string
  /** An existing job to follow up on or wait for. */
  jobId?: string
  /** Token for comments and permission checks; masked. Empty when not given (local runs). */
  githubToken: string
  comment: CommentMode
  /** The issue or pull request to comment on, when the event has none. */
  issueNumber?: number
  triggerPhrase: string
  /** On `issues` events, the label that starts the agent (`docs-agent` unless set): never any label. */
  label: string
  /** Least permission the triggering person needs, or 'none' for no check. */
  requiredPermission: Permission | 'none'
  /** Bot logins allowed to trigger, without the `[bot]` suffix, lower case. */
  allowedBots: ReadonlySet<string>
}

/** What decides what a change run covers. */
export interface PlanSettings {
  /** The trigger label: a pull request labelled with it asks for docs before it is merged. */
  label: string
  /** Keep the ledger: catch up from the last documented commit, fold into open docs work. */
  dashboard: boolean
  /**
   * `code-repositories`: the run is in a docs repository and documents these repositories, one
   * watermark each in its ledger; a repository_dispatch from one of them is a hint to catch up.
   */
  codeRepositories?: readonly CodeRepository[]
}

/** What shapes a run from code changes. */
export interface ChangeSettings extends PlanSettings {
  /** The policy file's standing instruction, sent before the changes. */
  instructions?: string
  /** open-pr: send changes to the job whose docs pull request is still open; never: a new job each time. */
  fold: FoldMode
  /** Pull requests with this label are skipped. */
  skipLabel: string
  /** Add an excerpt of the patches to the prompt. */
  includeDiff: boolean
  /** Reads the docs pull request's state when github-token cannot (a private docs repository); masked. */
  docsToken: string
  dashboardTitle: string
  paths: PathFilter
  maxJobs?: JobBudget
  /** `max-credits`: estimated credits in a rolling 30 days (starts × `creditsPerRun`). */
  maxCredits?: CreditBudget
  /** The estimated credits of one job or follow-up. */
  creditsPerRun: number
  /** `expire-after`: docs pull requests open longer are closed (needs `docs-token`). */
  expireAfter?: { ms: number; text: string; keepLabel: string }
  /** `max-open`: at most this many docs pull requests of the project open (a running job counts). */
  maxOpen?: number
  /** `quiet-hours`: when change runs start nothing. */
  quietHours?: QuietHours
  /** `reviewers: authors`: the changes' authors are requested as reviewers (needs `docs-token`). */
  reviewers?: ReviewerMode
  /** `approval: dashboard`: the changes wait for a tick on the dashboard before anything starts. */
  approval?: ApprovalMode
  dryRun: boolean
  /**
   * `since`: a code repository the ledger has no watermark for is read from this far back (a
   * first install's preview with `dry-run`); otherwise its head is recorded and nothing started.
   */
  since?: { ms: number; text: string }
  /**
   * `code-token`: reads the code repositories (masked); empty: `github-token` does. Lets the docs
   * repository's own token write the dashboard while a read-only token reaches the code.
   */
  codeToken?: string
}

export interface ImpactSettings extends Limits {
  apiKey: string
  projectId: string
  githubToken: string
  docsToken: string
  dashboardTitle: string
  /** `impact-after`: each window's length, in whole days. */
  impactAfter: { days: number; text: string }
  impactComment: (typeof IMPACT_COMMENT_MODES)[number]
  /** `max-requests`: analytics requests at most in this run, retries included. */
  maxRequests: number
  timeoutMs: number
  dryRun: boolean
  /** The folder Mintlify deploys, when the policy file names it. */
  docsRoot?: string
}

/** What the inputs of an agent action say; each action.yml declares its own, the others read empty. */
export interface Inputs extends Connection {
  prompt?: string
  jobId?: string
  wait: boolean
  timeoutMs: number
  pollIntervalMs: number
  failOn: ReadonlySet<FailOnWord>
  githubToken: string
  docsToken: string
  codeToken?: string
  comment: CommentMode
  issueNumber?: number
  label: string
  triggerPhrase: string
  dryRun: boolean
  /** `config`: the policy file's path as given; empty, the default. */
  config: string
  followReviews: ReviewMode
  /** `impact-after`: measure merged docs pull requests' reader impact (off when undefined). */
  impactAfter?: ImpactSettings['impactAfter']
  impactComment: ImpactSettings['impactComment']
  maxRequests: number
}

/** Everything a run of an agent action knows: its inputs over the policy file. */
export interface Settings extends Inputs, TriggerSettings, ChangeSettings {
  /** The policy file read, or undefined for the built-in defaults (no file). */
  policyFile?: string
  docsRoot?: string
}

/** Prompt files are meant to be short instructions; a huge one is a mistake (a wrong path). */
const MAX_PROMPT_FILE_BYTES = 256 * 1024
const MAX_TIMEOUT_MS = 72 * HOUR_MS
/**
 * Every secret of the settings, for what redacts the step's failure, outputs, summary and comments:
 * the key and each token (a token the service or GitHub echoes back is found there in any form).
 */
export const secretsOf = (
  settings: Partial<Pick<Inputs, 'apiKey' | 'githubToken' | 'docsToken' | 'codeToken'>> = {}
): (string | undefined)[] => [
  settings.apiKey,
  settings.githubToken,
  settings.docsToken,
  settings.codeToken
]

/**
 * Reads and validates an agent action's inputs, with `defaults` (its action.yml's, repeated because
 * a bare `node dist/…` gets none from the runner). The key and the tokens are masked before anything
 * else can print them.
 */
export function readInputs(
  get: InputReader,
  env: NodeJS.ProcessEnv,
  mask: Masker,
  defaults: Readonly<Partial<Record<string, string>>> = Defaults
): Inputs {
  const { apiKey, projectId, apiUrl } = readConnection(get, mask)
  const githubToken = readSecret(get, mask, Input.GithubToken)
  const docsToken = readSecret(get, mask, Input.DocsToken)
  const codeToken = readSecret(get, mask, Input.CodeToken)
  const value = (name: string): string => get(name).trim() || (defaults[name] ?? '')
  const rawJob = get(Input.JobId)
  const jobId = rawJob.trim() ? parseId(Input.JobId, rawJob) : undefined
  // Whether a missing prompt is fine depends on the event (an issue can be the prompt): see planTrigger.
  const prompt = readPrompt(get, workspaceOf(env))
  const rawIssue = get(Input.IssueNumber).trim()
  const triggerPhrase = value(Input.TriggerPhrase) || (Defaults[Input.TriggerPhrase] as string)
  if (/\s/.test(triggerPhrase) || triggerPhrase.length > 50)
    throw new InputError(
      `Input '${Input.TriggerPhrase}' must be one word such as /docs-agent; got '${triggerPhrase.slice(0, 50)}'.`
    )
  return {
    apiKey,
    projectId,
    apiUrl,
    prompt,
    jobId,
    wait: parseBoolean(Input.Wait, value(Input.Wait) || 'true'),
    timeoutMs: durationInput(Input.Timeout, value(Input.Timeout) || '30m', 1000, MAX_TIMEOUT_MS),
    pollIntervalMs: durationInput(
      Input.PollInterval,
      value(Input.PollInterval) || '10s',
      1000,
      HOUR_MS
    ),
    failOn: parseFailOn(value(Input.FailOn) || 'failed,timeout'),
    githubToken,
    docsToken,
    ...(codeToken ? { codeToken } : {}),
    comment: parseChoice(Input.Comment, value(Input.Comment) || 'auto', COMMENT_MODES),
    issueNumber: rawIssue ? parseInteger(Input.IssueNumber, rawIssue, 1, 2 ** 31 - 1) : undefined,
    label: readLabel(value(Input.Label) || (Defaults[Input.Label] as string)),
    triggerPhrase,
    dryRun: parseBoolean(Input.DryRun, value(Input.DryRun) || 'false'),
    config: get(Input.Config).trim(),
    followReviews: parseChoice(
      Input.FollowReviews,
      value(Input.FollowReviews) || 'phrase',
      REVIEW_MODES
    ),
    ...readImpact(value)
  }
}

/** The inputs over the policy file: what every flow of the run reads. */
export function withPolicy(inputs: Inputs, policy: Policy): Settings {
  return {
    ...inputs,
    ...(policy.file !== undefined ? { policyFile: policy.file } : {}),
    ...(policy.instructions !== undefined ? { instructions: policy.instructions } : {}),
    requiredPermission: policy.requiredPermission,
    allowedBots: policy.allowedBots,
    paths: policy.paths,
    skipLabel: policy.skipLabel,
    includeDiff: policy.includeDiff,
    fold: policy.fold,
    ...(policy.codeRepositories ? { codeRepositories: policy.codeRepositories } : {}),
    ...(policy.since ? { since: policy.since } : {}),
    dashboard: policy.dashboard,
    dashboardTitle: policy.dashboardTitle,
    approval: policy.approval,
    ...(policy.maxJobs ? { maxJobs: policy.maxJobs } : {}),
    ...(policy.maxCredits ? { maxCredits: policy.maxCredits } : {}),
    creditsPerRun: policy.creditsPerRun,
    ...(policy.maxOpen !== undefined ? { maxOpen: policy.maxOpen } : {}),
    ...(policy.expireAfter ? { expireAfter: policy.expireAfter } : {}),
    ...(policy.reviewers ? { reviewers: policy.reviewers } : {}),
    ...(policy.docsRoot !== undefined ? { docsRoot: policy.docsRoot } : {}),
    ...(policy.quietHours ? { quietHours: policy.quietHours } : {})
  }
}

/** A policy key that needs an input the workflow did not give: the error naming both. */
export const needsInput = (
  settings: Pick<Settings, 'policyFile'>,
  key: string,
  input: string,
  why: string
): InputError =>
  new InputError(
    `'${key}' in ${settings.policyFile ?? 'the policy file'} needs the input '${input}': ${why}`
  )

/**
 * A docs pull request is measured while the ledger lists it: beyond its last ten jobs, it keeps
 * those of the last 30 days, so the windows and the day of lag end within them.
 */
const MAX_IMPACT_DAYS = 28

/** `impact-after`, `impact-comment` and `max-requests`; measuring reads the docs repository and the ledger. */
function readImpact(
  value: (name: string) => string
): Pick<Inputs, 'impactAfter' | 'impactComment' | 'maxRequests'> {
  const impactComment = parseChoice(
    Input.ImpactComment,
    (value(Input.ImpactComment) || 'pr').toLowerCase(),
    IMPACT_COMMENT_MODES
  )
  const maxRequests = parseInteger(Input.MaxRequests, value(Input.MaxRequests) || '20', 1, 100)
  const text = value(Input.ImpactAfter).toLowerCase()
  if (!text) return { impactComment, maxRequests }
  const ms = durationInput(Input.ImpactAfter, text, DAY_MS, MAX_IMPACT_DAYS * DAY_MS)
  if (ms % DAY_MS)
    throw new InputError(
      `Input '${Input.ImpactAfter}' must be whole days (such as 14d or 2w), since the analytics count whole days; got '${text}'.`
    )
  return { impactAfter: { days: ms / DAY_MS, text }, impactComment, maxRequests }
}

/** A label name as GitHub allows it: one line, 1 to 50 characters. */
function readLabel(raw: string): string {
  const label = raw.trim()
  if (!label || label.length > 50 || /[\r\n]/.test(label))
    throw new InputError(
      `Input '${Input.Label}' must be a label name of 1 to 50 characters on one line; got ${label.length} characters.`
    )
  return label
}

function readPrompt(get: InputReader, workspace: string): string | undefined {
  const inline = get(Input.Prompt)
  const file = get(Input.PromptFile).trim()
  if (inline.trim() && file) {
    throw new InputError(`Set only one of '${Input.Prompt}' and '${Input.PromptFile}', not both.`)
  }
  if (file) return readPromptFile(file, workspace)
  if (inline === '') return undefined
  if (!inline.trim()) {
    throw new InputError(`Input '${Input.Prompt}' is blank: write an instruction for the agent.`)
  }
  return inline.trim()
}

function readPromptFile(file: string, workspace: string): string {
  const text = readWorkspaceFile(Input.PromptFile, file, workspace, MAX_PROMPT_FILE_BYTES).trim()
  if (!text)
    throw new InputError(
      `Input '${Input.PromptFile}': '${file}' is empty; write the instruction in it.`
    )
  return text
}

function parseFailOn(raw: string): ReadonlySet<FailOnWord> {
  const words = raw
    .split(',')
    .map(w => w.trim().toLowerCase())
    .filter(Boolean)
  if (words.length === 1 && words[0] === 'none') return new Set()
  const result = new Set<FailOnWord>()
  for (const given of words) {
    // `result` says timed-out; both words mean the same here.
    const word = given === 'timed-out' ? 'timeout' : given
    if (!(FAIL_ON_WORDS as readonly string[]).includes(word)) {
      throw new InputError(
        `Input '${Input.FailOn}' accepts a comma list of ${FAIL_ON_WORDS.join(', ')}, or 'none'; '${word}' is not one of them.`
      )
    }
    result.add(word as FailOnWord)
  }
  return result
}

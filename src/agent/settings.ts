import { type Connection, parseId, readConnection } from '../mintlify/connection.js'
import { durationInput } from '../runner/duration.js'
import {
  type InputReader,
  type Masker,
  parseBoolean,
  parseChoice,
  parseInteger,
  readSecret,
  withDefaults
} from '../runner/inputs.js'
import { readWorkspaceFile, workspaceOf } from '../runner/workspace.js'
import { InputError } from '../runner/errors.js'
import { Defaults, Input } from './names.js'
import { type PathFilter, readPathFilter } from '../policy/path-filter.js'
import { type CodeRepository, readCodeRepositories } from '../policy/code-repositories.js'
import { type JobBudget, parseMaxJobs } from '../policy/budget.js'
import {
  APPROVAL_MODES,
  type ApprovalMode,
  FOLD_MODES,
  type FoldMode,
  REVIEWER_MODES
} from '../policy/choices.js'
import { botName } from '../github/event.js'
import { PERMISSIONS, type Permission } from '../github/permission.js'
import { FAIL_ON_WORDS, type FailOnWord } from './outcome.js'

// The allowed values of the inputs and the settings each flow takes live here, with their
// reading: the flows import their types from the settings, never the settings from a flow.

export const COMMENT_MODES = ['auto', 'true', 'false'] as const
export type CommentMode = (typeof COMMENT_MODES)[number]

/** The inputs that decide what a run does with its trigger. */
export interface TriggerSettings {
  /** The prompt to send: for a new job, or as a follow-up when `jobId` is set. */
  prompt?: string
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

export const CHANGES = ['event', 'since-last'] as const

/** The inputs that decide what a change run covers. */
export interface PlanSettings {
  /** The trigger label: a pull request labelled with it asks for docs before it is merged. */
  label: string
  /** Keep the ledger: catch up from the last documented commit, fold into open docs work. */
  dashboard: boolean
  /** `since-last` on a schedule or by hand: catch up without a prompt. */
  changes: (typeof CHANGES)[number]
  prompt?: string
  /**
   * `code-repositories`: the run is in a docs repository and documents these repositories, one
   * watermark each in its ledger; a repository_dispatch from one of them is a hint to catch up.
   */
  codeRepositories?: readonly CodeRepository[]
}

/** The event type a code repository's repository_dispatch carries to the docs repository. */
export const DISPATCH_TYPE = 'docs-agent'

/** The inputs that shape a run from code changes. */
export interface ChangeSettings extends PlanSettings {
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
  /** `expire-after`: docs pull requests open longer are closed (needs `docs-token`). */
  expireAfter?: { ms: number; text: string; keepLabel: string }
  /** `max-open`: at most this many docs pull requests of the project open (a running job counts). */
  maxOpen?: number
  /** `reviewers: authors`: the changes' authors are requested as reviewers (needs `docs-token`). */
  reviewers?: (typeof REVIEWER_MODES)[number]
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

/** `follow-reviews`: reviews that start with the trigger phrase, or every review with text. */
export const REVIEW_MODES = ['phrase', 'all'] as const
export type ReviewMode = (typeof REVIEW_MODES)[number]

export const IMPACT_COMMENT_MODES = ['pr', 'dashboard'] as const

export interface ImpactSettings {
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
}

/** Everything the agent action needs, validated before the first request. */
export interface Settings extends Connection, TriggerSettings, ChangeSettings {
  wait: boolean
  timeoutMs: number
  pollIntervalMs: number
  failOn: ReadonlySet<FailOnWord>
  followReviews: ReviewMode
  /** `impact-after`: measure merged docs pull requests' reader impact (off when undefined). */
  impactAfter?: ImpactSettings['impactAfter']
  impactComment: ImpactSettings['impactComment']
  maxRequests: number
}

/** Prompt files are meant to be short instructions; a huge one is a mistake (a wrong path). */
const MAX_PROMPT_FILE_BYTES = 256 * 1024
const MAX_TIMEOUT_MS = 72 * 3_600_000

/**
 * Every secret of the settings, for what redacts the step's failure, outputs, summary and comments:
 * the key and each token (a token the service or GitHub echoes back is found there in any form).
 */
export const secretsOf = (
  settings: Partial<Pick<Settings, 'apiKey' | 'githubToken' | 'docsToken' | 'codeToken'>> = {}
): (string | undefined)[] => [
  settings.apiKey,
  settings.githubToken,
  settings.docsToken,
  settings.codeToken
]

/** Reads and validates the inputs. The key is masked before anything else can print it. */
export function readSettings(get: InputReader, env: NodeJS.ProcessEnv, mask: Masker): Settings {
  const { apiKey, projectId, apiUrl } = readConnection(get, mask)
  const githubToken = readSecret(get, mask, Input.GithubToken)
  const docsToken = readSecret(get, mask, Input.DocsToken)
  const codeToken = readSecret(get, mask, Input.CodeToken)
  const rawJob = get(Input.JobId)
  const jobId = rawJob.trim() ? parseId(Input.JobId, rawJob) : undefined
  // Whether a missing prompt is fine depends on the event (an issue can be the prompt): see planTrigger.
  const value = withDefaults(get, Defaults)
  const prompt = readPrompt(get, workspaceOf(env))
  const wait = parseBoolean(Input.Wait, value(Input.Wait))
  const timeoutMs = durationInput(Input.Timeout, value(Input.Timeout), 1000, MAX_TIMEOUT_MS)
  const pollIntervalMs = durationInput(
    Input.PollInterval,
    value(Input.PollInterval),
    1000,
    3_600_000
  )
  const failOn = parseFailOn(value(Input.FailOn))
  const rawIssue = get(Input.IssueNumber).trim()
  const issueNumber = rawIssue
    ? parseInteger(Input.IssueNumber, rawIssue, 1, 2 ** 31 - 1)
    : undefined
  const dashboard = parseBoolean(Input.Dashboard, value(Input.Dashboard))
  const triggerPhrase = value(Input.TriggerPhrase)
  if (/\s/.test(triggerPhrase)) {
    throw new InputError(
      `Input '${Input.TriggerPhrase}' must be one word such as /docs-agent; got '${triggerPhrase}'.`
    )
  }
  return {
    apiKey,
    projectId,
    prompt,
    jobId,
    apiUrl,
    wait,
    timeoutMs,
    pollIntervalMs,
    failOn,
    githubToken,
    comment: parseChoice(Input.Comment, value(Input.Comment), COMMENT_MODES),
    issueNumber,
    triggerPhrase,
    label: value(Input.Label).trim(),
    requiredPermission: parseChoice(Input.RequiredPermission, value(Input.RequiredPermission), [
      ...PERMISSIONS,
      'none'
    ] as const),
    allowedBots: new Set(get(Input.AllowedBots).split(',').map(botName).filter(Boolean)),
    fold: parseChoice(Input.Fold, value(Input.Fold), FOLD_MODES),
    skipLabel: value(Input.SkipLabel),
    includeDiff: parseBoolean(Input.IncludeDiff, value(Input.IncludeDiff)),
    docsToken,
    dashboard,
    dashboardTitle: readTitle(value(Input.DashboardTitle)),
    changes: parseChoice(Input.Changes, value(Input.Changes), CHANGES),
    dryRun: parseBoolean(Input.DryRun, value(Input.DryRun)),
    paths: readPathFilter(Input.Paths, get(Input.Paths), Input.PathsIgnore, get(Input.PathsIgnore)),
    maxJobs: parseMaxJobs(Input.MaxJobs, get(Input.MaxJobs)),
    expireAfter: readExpireAfter(get(Input.ExpireAfter), value(Input.KeepLabel), docsToken),
    maxOpen: get(Input.MaxOpen).trim()
      ? parseInteger(Input.MaxOpen, get(Input.MaxOpen).trim(), 1, 100)
      : undefined,
    reviewers: readReviewers(get(Input.Reviewers), docsToken),
    followReviews: parseChoice(Input.FollowReviews, value(Input.FollowReviews), REVIEW_MODES),
    approval: readApproval(value(Input.Approval), dashboard),
    ...readImpact(get, value, docsToken, dashboard),
    ...readProject(get, env, dashboard, codeToken)
  }
}

/** The longest `since`: GitHub lists 100 merged pull requests a page, a quarter is plenty. */
const MAX_SINCE_MS = 90 * 86_400_000

/** `code-repositories` and `since`: the docs project's repositories; their watermarks are in the ledger. */
function readProject(
  get: InputReader,
  env: NodeJS.ProcessEnv,
  dashboard: boolean,
  codeToken: string
): Pick<Settings, 'codeRepositories' | 'since' | 'codeToken'> {
  const raw = get(Input.CodeRepositories)
  const sinceText = get(Input.Since).trim().toLowerCase()
  if (!raw.trim()) {
    if (sinceText)
      throw new InputError(
        `Input '${Input.Since}' needs '${Input.CodeRepositories}': it is how far back a code repository the ledger has no watermark for is read.`
      )
    if (codeToken)
      throw new InputError(
        `Input '${Input.CodeToken}' needs '${Input.CodeRepositories}': it reads the code repositories listed there.`
      )
    return {}
  }
  const codeRepositories = readCodeRepositories(
    Input.CodeRepositories,
    raw,
    env.GITHUB_REPOSITORY ?? ''
  )
  if (!codeRepositories.length) return {}
  if (!dashboard)
    throw new InputError(
      `Input '${Input.CodeRepositories}' needs '${Input.Dashboard}: true': the dashboard's ledger keeps each code repository's last documented commit.`
    )
  const since = sinceText
    ? {
        ms: durationInput(Input.Since, sinceText, 3_600_000, MAX_SINCE_MS),
        text: sinceText
      }
    : undefined
  return { codeRepositories, ...(since ? { since } : {}), ...(codeToken ? { codeToken } : {}) }
}

/** `approval: dashboard` waits for a tick on the dashboard, so it needs the dashboard. */
function readApproval(raw: string, dashboard: boolean): ApprovalMode {
  const mode = parseChoice(Input.Approval, raw.trim().toLowerCase(), APPROVAL_MODES)
  if (mode === 'dashboard' && !dashboard)
    throw new InputError(
      `Input '${Input.Approval}' is 'dashboard' but '${Input.Dashboard}' is 'false': the changes wait for approval on the dashboard issue. Set '${Input.Dashboard}: true' or '${Input.Approval}: none'.`
    )
  return mode
}

/**
 * A docs pull request is measured while the ledger lists it: beyond its last ten jobs, it keeps
 * those of the last 30 days, so the windows and the day of lag end within them.
 */
const MAX_IMPACT_DAYS = 28

/** `impact-after`, `impact-comment` and `max-requests`; measuring reads the docs repository and the ledger. */
function readImpact(
  get: InputReader,
  value: (name: keyof typeof Defaults) => string,
  docsToken: string,
  dashboard: boolean
): Pick<Settings, 'impactAfter' | 'impactComment' | 'maxRequests'> {
  const impactComment = parseChoice(
    Input.ImpactComment,
    value(Input.ImpactComment).trim().toLowerCase(),
    IMPACT_COMMENT_MODES
  )
  const maxRequests = parseInteger(Input.MaxRequests, value(Input.MaxRequests).trim(), 1, 100)
  const text = get(Input.ImpactAfter).trim().toLowerCase()
  if (!text) return { impactComment, maxRequests }
  const ms = durationInput(Input.ImpactAfter, text, DAY_MS, MAX_IMPACT_DAYS * DAY_MS)
  if (ms % DAY_MS)
    throw new InputError(
      `Input '${Input.ImpactAfter}' must be whole days (such as 14d or 2w), since the analytics count whole days; got '${text}'.`
    )
  if (!docsToken)
    throw new InputError(
      `Input '${Input.ImpactAfter}' needs '${Input.DocsToken}': the docs pull requests' files are read, and the result commented on them, in the docs repository.`
    )
  if (!dashboard)
    throw new InputError(
      `Input '${Input.ImpactAfter}' needs '${Input.Dashboard}: true': the merged docs pull requests to measure, and what was measured, are in the dashboard's ledger.`
    )
  return { impactAfter: { days: ms / DAY_MS, text }, impactComment, maxRequests }
}

const DAY_MS = 86_400_000

/** `reviewers`: empty or `authors`; requesting reviews in the docs repository needs `docs-token`. */
function readReviewers(raw: string, docsToken: string): ChangeSettings['reviewers'] {
  const text = raw.trim().toLowerCase()
  if (!text) return undefined
  const mode = parseChoice(Input.Reviewers, text, REVIEWER_MODES)
  if (!docsToken)
    throw new InputError(
      `Input '${Input.Reviewers}' needs '${Input.DocsToken}': reviews are requested on the docs pull request, in the docs repository, with a token that can write its pull requests.`
    )
  return mode
}

const MAX_EXPIRE_AFTER_MS = 365 * 86_400_000

/** `expire-after`: a duration of an hour to a year, with `keep-label`; closing needs `docs-token`. */
function readExpireAfter(
  raw: string,
  keepLabel: string,
  docsToken: string
): ChangeSettings['expireAfter'] {
  const text = raw.trim().toLowerCase()
  if (!text) return undefined
  const ms = durationInput(Input.ExpireAfter, text, 3_600_000, MAX_EXPIRE_AFTER_MS)
  if (!docsToken)
    throw new InputError(
      `Input '${Input.ExpireAfter}' needs '${Input.DocsToken}': docs pull requests are closed in the docs repository, with a token that can write its pull requests.`
    )
  return { ms, text, keepLabel: keepLabel.trim() }
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

/** An issue title: one line, at most 256 characters (GitHub's own limit is higher). */
function readTitle(raw: string): string {
  const title = raw.replace(/\s+/g, ' ').trim()
  if (!title || title.length > 256)
    throw new InputError(
      `Input '${Input.DashboardTitle}' must be a title of 1 to 256 characters; got ${title.length} characters.`
    )
  return title
}

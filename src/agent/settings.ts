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
import { type ChangeSettings, FOLD_MODES } from './change/change-settings.js'
import { readPathFilter } from './change/path-filter.js'
import { REVIEWER_MODES } from './change/reviewers.js'
import { APPROVAL_MODES, type ApprovalMode } from './change/approval.js'
import { parseMaxJobs } from './ledger/budget.js'
import { botName } from '../github/event.js'
import { PERMISSIONS } from '../github/permission.js'
import { COMMENT_MODES, type TriggerSettings } from './issue/trigger.js'
import { FAIL_ON_WORDS, type FailOnWord } from './outcome.js'
import { REVIEW_MODES, type ReviewMode } from './review/review-run.js'
import { IMPACT_COMMENT_MODES, type ImpactSettings } from './impact/impact-run.js'

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

/** Reads and validates the inputs. The key is masked before anything else can print it. */
export function readSettings(get: InputReader, env: NodeJS.ProcessEnv, mask: Masker): Settings {
  const { apiKey, projectId, apiUrl } = readConnection(get, mask)
  const githubToken = readSecret(get, mask, Input.GithubToken)
  const docsToken = readSecret(get, mask, Input.DocsToken)
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
    label: get(Input.Label).trim(),
    requiredPermission: parseChoice(Input.RequiredPermission, value(Input.RequiredPermission), [
      ...PERMISSIONS,
      'none'
    ] as const),
    allowedBots: new Set(get(Input.AllowedBots).split(',').map(botName).filter(Boolean)),
    fold: parseChoice(Input.Fold, value(Input.Fold), FOLD_MODES),
    skipLabel: value(Input.SkipLabel),
    includeDiff: parseBoolean(Input.IncludeDiff, value(Input.IncludeDiff)),
    docsToken,
    dashboard: parseBoolean(Input.Dashboard, value(Input.Dashboard)),
    dashboardTitle: readTitle(value(Input.DashboardTitle)),
    changes: parseChoice(Input.Changes, value(Input.Changes), CHANGES),
    dryRun: parseBoolean(Input.DryRun, value(Input.DryRun)),
    paths: readPathFilter(Input.Paths, get(Input.Paths), Input.PathsIgnore, get(Input.PathsIgnore)),
    maxJobs: parseMaxJobs(Input.MaxJobs, get(Input.MaxJobs)),
    expireAfter: readExpireAfter(get(Input.ExpireAfter), docsToken),
    maxOpen: get(Input.MaxOpen).trim()
      ? parseInteger(Input.MaxOpen, get(Input.MaxOpen).trim(), 1, 100)
      : undefined,
    reviewers: readReviewers(get(Input.Reviewers), docsToken),
    followReviews: parseChoice(Input.FollowReviews, value(Input.FollowReviews), REVIEW_MODES),
    approval: readApproval(value(Input.Approval), value(Input.Dashboard)),
    ...readImpact(get, value, docsToken)
  }
}

/** `approval: dashboard` waits for a tick on the dashboard, so it needs the dashboard. */
function readApproval(raw: string, dashboard: string): ApprovalMode {
  const mode = parseChoice(Input.Approval, raw.trim().toLowerCase(), APPROVAL_MODES)
  if (mode === 'dashboard' && !parseBoolean(Input.Dashboard, dashboard))
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
  docsToken: string
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
  if (!parseBoolean(Input.Dashboard, value(Input.Dashboard)))
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

/** `expire-after`: a duration of an hour to a year; closing needs `docs-token`. */
function readExpireAfter(raw: string, docsToken: string): ChangeSettings['expireAfter'] {
  const text = raw.trim().toLowerCase()
  if (!text) return undefined
  const ms = durationInput(Input.ExpireAfter, text, 3_600_000, MAX_EXPIRE_AFTER_MS)
  if (!docsToken)
    throw new InputError(
      `Input '${Input.ExpireAfter}' needs '${Input.DocsToken}': docs pull requests are closed in the docs repository, with a token that can write its pull requests.`
    )
  return { ms, text }
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

const CHANGES = ['event', 'since-last'] as const

/** An issue title: one line, at most 256 characters (GitHub's own limit is higher). */
function readTitle(raw: string): string {
  const title = raw.replace(/\s+/g, ' ').trim()
  if (!title || title.length > 256)
    throw new InputError(
      `Input '${Input.DashboardTitle}' must be a title of 1 to 256 characters; got ${title.length} characters.`
    )
  return title
}

/** The post step needs only the connection and the token, read again from the same inputs. */
export function readPostSettings(
  get: InputReader,
  mask: Masker
): Connection & { githubToken: string } {
  const connection = readConnection(get, mask)
  return { ...connection, githubToken: readSecret(get, mask, Input.GithubToken) }
}

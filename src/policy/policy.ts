import { botName } from '../github/event.js'
import type { Permission } from '../github/permission.js'
import { parseDuration } from '../runner/duration.js'
import { BUDGET_WINDOWS, type CreditBudget, type JobBudget, jobBudget } from './budget.js'
import { type CodeRepository, codeRepository } from './code-repositories.js'
import { type PathFilter, pathFilter } from './path-filter.js'
import { DEFAULTS, PRESETS } from './presets.js'
import {
  type ApprovalMode,
  type FoldMode,
  type PresetName,
  type ReviewerMode,
  WEEKDAYS
} from './choices.js'
import type { PolicyFile, PolicyKey } from './schema.js'

/** The file's values over its preset's over the defaults: every defaulted key has one. */
export type PolicyValues = PolicyFile & {
  [K in keyof typeof DEFAULTS]-?: NonNullable<PolicyFile[K]>
}

/**
 * The policy the flows take: the file's values over its preset's over the defaults, typed for use
 * (globs compiled, durations in milliseconds with their text, budgets with their windows).
 */
export interface Policy {
  /** The file it was read from; undefined: no file, the built-in defaults. */
  readonly file?: string
  /** The preset the file extends. */
  readonly preset?: PresetName
  /** The values as written (after preset and defaults), for what shows the policy to people. */
  readonly values: Readonly<PolicyValues>
  /** Least permission the triggering person needs, or 'none' for no check. */
  readonly requiredPermission: Permission | 'none'
  /** Bot logins allowed to trigger, without the `[bot]` suffix, lower case. */
  readonly allowedBots: ReadonlySet<string>
  /** The standing instruction sent before every request. */
  readonly instructions?: string
  /** `paths` and `paths-ignore`. */
  readonly paths: PathFilter
  /** Pull requests with this label are skipped. */
  readonly skipLabel: string
  /** Add an excerpt of the patches to the prompt. */
  readonly includeDiff: boolean
  /** open-pr: send changes to the job whose docs pull request is still open; never: a new job each time. */
  readonly fold: FoldMode
  /** The docs project's code repositories; undefined: the workflow's own repository. */
  readonly codeRepositories?: readonly CodeRepository[]
  /** How far back a code repository without a watermark is read (a first look); none: its head. */
  readonly since?: { ms: number; text: string }
  /** Keep the ledger: catch up from the last documented commit, fold into open docs work. */
  readonly dashboard: boolean
  readonly dashboardTitle: string
  /** `approval: dashboard`: the changes wait for a tick on the dashboard before anything starts. */
  readonly approval: ApprovalMode
  readonly maxJobs?: JobBudget
  readonly maxCredits?: CreditBudget
  /** The estimated credits of one job or follow-up. */
  readonly creditsPerRun: number
  /** At most this many docs pull requests of the project open (a running job counts). */
  readonly maxOpen?: number
  /** `expire-after`: docs pull requests untouched longer are closed (needs `docs-token`). */
  readonly expireAfter?: { ms: number; text: string; keepLabel: string }
  /** `reviewers: authors`: the changes' authors are requested as reviewers (needs `docs-token`). */
  readonly reviewers?: ReviewerMode
  /** The folder Mintlify deploys, without a trailing `/`; undefined: found from the tree. */
  readonly docsRoot?: string
  /** `quiet-hours`: when change runs start nothing. */
  readonly quietHours?: QuietHours
}

/**
 * The limits only the dashboard's ledger holds, by key, with the policy's field: the ledger counts
 * the starts (`max-jobs`, `max-credits`) and lists the docs pull requests of change runs
 * (`max-open`, `expire-after`). Without the dashboard nothing would hold them: a file that sets one
 * with `dashboard: false` is refused (read.ts).
 */
export const LEDGER_LIMITS = {
  'max-jobs': 'maxJobs',
  'max-credits': 'maxCredits',
  'max-open': 'maxOpen',
  'expire-after': 'expireAfter'
} as const satisfies Partial<Record<PolicyKey, keyof Policy>>

export type LedgerLimit = keyof typeof LEDGER_LIMITS

/**
 * The keys a policy sets that need `dashboard: true`: approval on the dashboard, a docs project's
 * code repositories, a limit only the ledger holds. None: its runs could go without the dashboard.
 */
export function needingDashboard(
  policy: Partial<
    Pick<Policy, 'approval' | 'codeRepositories' | (typeof LEDGER_LIMITS)[LedgerLimit]>
  >
): PolicyKey[] {
  const limits = (Object.keys(LEDGER_LIMITS) as LedgerLimit[]).filter(
    key => policy[LEDGER_LIMITS[key]] !== undefined
  )
  return [
    ...(policy.approval === 'dashboard' ? (['approval'] as const) : []),
    ...(policy.codeRepositories?.length ? (['code-repositories'] as const) : []),
    ...limits
  ]
}

/** `quiet-hours`, ready to test a moment against: days (getDay()'s numbers), minutes of the day. */
export interface QuietHours {
  days: readonly number[]
  /** A daily window in minutes since midnight; `from` after `to` crosses midnight. */
  window?: { from: number; to: number }
  timeZone: string
  /** As people read it: "saturday, sunday, 20:00–07:00 Europe/Berlin". */
  text: string
}

/** A checked file's values over its preset's over the defaults. */
export const policyValues = (file: PolicyFile): PolicyValues => ({
  ...DEFAULTS,
  ...(file.extends ? PRESETS[file.extends] : {}),
  ...file
})

/** The policy of checked values (the schema's, and the rules across keys in read.ts). */
export function resolvePolicy(values: PolicyValues, file?: string): Policy {
  const expire = values['expire-after']
  const credits = values['max-credits']
  const maxJobs = values['max-jobs']
  const repositories = values['code-repositories'].map(entry =>
    typeof entry === 'string'
      ? codeRepository(entry)
      : codeRepository(
          entry.repository,
          entry.paths || entry['paths-ignore']
            ? { paths: entry.paths ?? [], ignore: entry['paths-ignore'] ?? [] }
            : undefined
        )
  )
  return {
    ...(file !== undefined ? { file } : {}),
    ...(values.extends ? { preset: values.extends } : {}),
    values,
    requiredPermission: values['required-permission'],
    allowedBots: new Set(values['allowed-bots'].map(botName)),
    ...(values.instructions !== undefined ? { instructions: values.instructions.trim() } : {}),
    paths: pathFilter(values.paths, values['paths-ignore']),
    skipLabel: values['skip-label'],
    includeDiff: values['include-diff'],
    fold: values.fold,
    ...(repositories.length ? { codeRepositories: repositories } : {}),
    ...(values.since !== undefined
      ? { since: { ms: parseDuration(values.since) as number, text: values.since } }
      : {}),
    dashboard: values.dashboard,
    dashboardTitle: values['dashboard-title'],
    approval: values.approval,
    ...(maxJobs !== undefined ? { maxJobs: jobBudget(maxJobs) } : {}),
    ...(credits !== undefined
      ? { maxCredits: { max: credits, windowMs: BUDGET_WINDOWS.month } }
      : {}),
    creditsPerRun: values['credits-per-run'],
    ...(values['max-open'] !== undefined ? { maxOpen: values['max-open'] } : {}),
    ...(expire !== undefined
      ? {
          expireAfter: {
            ms: parseDuration(expire) as number,
            text: expire,
            keepLabel: values['keep-label']
          }
        }
      : {}),
    ...(values.reviewers ? { reviewers: values.reviewers } : {}),
    ...(values['docs-root'] !== undefined
      ? { docsRoot: values['docs-root'].replace(/\/+$/, '') }
      : {}),
    ...(values['quiet-hours'] ? { quietHours: quietHours(values['quiet-hours']) } : {})
  }
}

const minutes = (time: string): number => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5))

function quietHours(q: NonNullable<PolicyValues['quiet-hours']>): QuietHours {
  const timeZone = q.timezone ?? 'UTC'
  const days = (q.days ?? []).map(d => WEEKDAYS.indexOf(d))
  const window =
    q.from !== undefined && q.to !== undefined
      ? { from: minutes(q.from), to: minutes(q.to) }
      : undefined
  const text = [
    ...(q.days?.length ? [q.days.join(', ')] : []),
    ...(q.from !== undefined ? [`${q.from}–${q.to}`] : [])
  ].join(', ')
  return { days, ...(window ? { window } : {}), timeZone, text: `${text} ${timeZone}` }
}

/** The built-in policy, when the workflow's repository has no policy file. */
export const defaultPolicy = (): Policy => resolvePolicy(policyValues({}))

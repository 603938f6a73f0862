import * as v from 'valibot'
import { DAY_MS, HOUR_MS, parseDuration } from '../runner/duration.js'
import { MAX_STARTS } from '../records/ledger/starts.js'
import { MAX_JOBS_PATTERN } from './budget.js'
import {
  APPROVAL_MODES,
  FOLD_MODES,
  PERMISSION_CHOICES,
  POLICY_VERSION,
  PRESET_NAMES,
  REVIEWER_MODES,
  WEEKDAYS
} from './choices.js'
import { MAX_CODE_REPOSITORIES, REPOSITORY_PATTERN } from './code-repositories.js'
import { MAX_PATTERNS, isGlob } from './path-filter.js'

/**
 * The policy file's keys (`.github/docs-agent.yml`), one schema for the action and for editors
 * (`npm run schema` writes its JSON Schema): each key with its form (`title`), what it does
 * (`description`), an example, its constraints and the message that says what is wrong. The schema
 * takes the file as written; defaults and presets are data (presets.ts), the typed values for the
 * flows come after (policy.ts).
 */

/** The longest standing instruction: it is sent before every request. */
export const MAX_INSTRUCTIONS = 8192
/** `expire-after`'s range. */
export const EXPIRE_AFTER_MS = { min: HOUR_MS, max: 365 * DAY_MS } as const
/** `since`'s range: GitHub lists 100 merged pull requests a page, a quarter is plenty. */
export const SINCE_MS = { min: HOUR_MS, max: 90 * DAY_MS } as const
/** A duration as `parseDuration` reads it, in lower case as the file writes it. */
export const DURATION_PATTERN = /^(?:\d+(?:\.\d+)?(?:ms|s|m|h|d|w))+$/

interface KeyInfo {
  /** The value's form, for people: a line of the reference and the editor's title. */
  form: string
  /** What the key does; the editor shows it. */
  description: string
  /** A value that is right: in the editor, the reference and every message about the key. */
  example: unknown
}

/** A key of the file: optional, with what people read about it. */
const key = <const S extends v.GenericSchema>(schema: S, info: KeyInfo) =>
  v.optional(
    v.pipe(
      schema,
      v.title(info.form),
      v.description(info.description),
      v.metadata({ examples: [info.example] })
    )
  )

const label = (what: string) =>
  v.pipe(
    v.string(`must be ${what}`),
    v.minLength(1, `must be ${what}`),
    v.maxLength(50, 'must be at most 50 characters (GitHub’s longest label name)'),
    v.regex(/^\S(?:[^\r\n]*\S)?$/, 'must be one line with no space at either end')
  )

/** A duration within its range, as `parseDuration` reads it: `example` is the one its messages give. */
const duration = (range: { min: number; max: number }, example: string, rangeText: string) =>
  v.pipe(
    v.string(`must be a duration such as ${example}`),
    v.regex(DURATION_PATTERN, `must be a duration such as ${example}, 2w or 36h`),
    v.check(text => {
      const ms = parseDuration(text) ?? 0
      return ms >= range.min && ms <= range.max
    }, `must be from ${rangeText}`)
  )

const LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\[bot\])?$/

const glob = v.pipe(
  v.string('must be a glob such as src/** (text, quoted when it starts with ! or *)'),
  v.minLength(1, 'must be a glob such as src/**, not empty'),
  v.maxLength(500, 'must be a glob of at most 500 characters'),
  v.check(isGlob, 'is not a glob picomatch can read (an unclosed [ or ( ?)')
)

const globs = (what: string) =>
  v.pipe(
    v.array(glob, `must be a YAML list of globs${what}`),
    v.maxLength(MAX_PATTERNS, `must list at most ${MAX_PATTERNS} globs`)
  )

const repository = v.pipe(
  v.string('must be a repository as owner/repo'),
  v.regex(REPOSITORY_PATTERN, 'must be a repository as owner/repo, such as acme/api')
)

const codeRepository = v.union(
  [
    repository,
    v.strictObject(
      {
        repository,
        paths: v.optional(globs(' for this repository')),
        'paths-ignore': v.optional(globs(' this repository ignores'))
      },
      'must be owner/repo or a mapping of repository, paths and paths-ignore'
    )
  ],
  'must be owner/repo, or a mapping of repository with its own paths and paths-ignore'
)

const wholeNumber = (min: number, max: number) =>
  v.pipe(
    v.number(`must be a whole number from ${min} to ${max}`),
    v.integer(`must be a whole number from ${min} to ${max}`),
    v.minValue(min, `must be a whole number from ${min} to ${max}`),
    v.maxValue(max, `must be a whole number from ${min} to ${max}`)
  )

const choice = <const T extends readonly string[]>(choices: T) =>
  v.picklist(choices, `must be one of ${choices.join(', ')}`)

const boolean = v.boolean('must be true or false')

const MAX_JOBS_MESSAGE = `must be N/day, N/week or N/month with N a whole number from 1 to ${MAX_STARTS}`

/** A time of day, 24-hour: `07:00`, `22:30`. */
const clockTime = v.pipe(
  v.string('must be a time such as 07:00'),
  v.regex(/^(?:[01]\d|2[0-3]):[0-5]\d$/, 'must be a time of day such as 07:00 or 22:30')
)

/** The first item a list holds twice. */
const twice = (items: readonly string[]): string | undefined =>
  items.find((item, i) => items.indexOf(item) !== i)

/** A time zone the runtime knows (IANA names, UTC). */
function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name })
    return true
  } catch {
    return false
  }
}

export const POLICY_SCHEMA = v.pipe(
  v.strictObject(
    {
      version: key(
        v.literal(POLICY_VERSION, issue =>
          // "1" in quotes is YAML's text, not the number.
          typeof issue.input === 'string'
            ? `must be the number ${POLICY_VERSION}, without quotes`
            : `must be the number ${POLICY_VERSION}`
        ),
        {
          form: `${POLICY_VERSION}`,
          description:
            'The format of this file. A file written for a newer action (a higher version) is refused rather than half read.',
          example: POLICY_VERSION
        }
      ),
      extends: key(choice(PRESET_NAMES), {
        form: PRESET_NAMES.join(' | '),
        description:
          'A preset the file starts from: cautious (changes wait for a tick on the dashboard, one docs pull request open at a time, 20 jobs a month), standard (one open docs pull request, 9,000 credits a month) or autopilot (three open, 10,000 credits a month). A key written in this file overrides the preset’s value.',
        example: 'standard'
      }),
      'required-permission': key(choice(PERMISSION_CHOICES), {
        form: PERMISSION_CHOICES.join(' | '),
        description:
          'The least permission on the repository the person who triggers a run needs (adding the label, a comment, a tick on the dashboard); none turns the check off.',
        example: 'write'
      }),
      'allowed-bots': key(
        v.pipe(
          v.array(
            v.pipe(
              v.string('must be a bot’s login such as renovate'),
              v.maxLength(100, 'must be a login of at most 100 characters'),
              v.regex(LOGIN, 'must be a login such as renovate or renovate[bot]')
            ),
            'must be a YAML list of logins'
          ),
          v.maxLength(100, 'must list at most 100 logins')
        ),
        {
          form: 'list of logins (renovate or renovate[bot])',
          description:
            'Bots allowed to trigger a run, or to author a merged pull request that starts one; other bots are refused.',
          example: ['renovate', 'dependabot[bot]']
        }
      ),
      instructions: key(
        v.pipe(
          v.string('must be text'),
          v.regex(/\S/, 'must be text, not blank'),
          v.maxLength(MAX_INSTRUCTIONS, `must be at most ${MAX_INSTRUCTIONS} characters`)
        ),
        {
          form: `text, at most ${MAX_INSTRUCTIONS} characters`,
          description:
            'A standing instruction sent before every request the actions build (a new job, a follow-up, a change’s prompt): the docs’ voice, what to leave alone.',
          example: 'Write in the second person. Never edit the changelog pages.'
        }
      ),
      paths: key(globs(''), {
        form: 'list of globs (! takes one back)',
        description:
          'A pull request or commit that changes no matching file is skipped, as on.push.paths reads them: * within a folder, ** across folders, a ! pattern takes back what an earlier one matched, the last match decides. Quote a glob that starts with ! or *. Empty: every file counts.',
        example: ['src/**', '!src/**/*.test.ts']
      }),
      'paths-ignore': key(globs(''), {
        form: 'list of globs',
        description:
          'Changed files that match do not count, and are left out of the prompt’s list of files.',
        example: ['**/*.snap', 'src/generated/**']
      }),
      'skip-label': key(label('a label name of 1 to 50 characters'), {
        form: 'label name',
        description: 'Pull requests carrying this label are not documented.',
        example: 'no-docs'
      }),
      'include-diff': key(boolean, {
        form: 'true | false',
        description:
          'Add an excerpt of the patches to the prompt (a change’s description stays under 32,000 bytes).',
        example: true
      }),
      fold: key(choice(FOLD_MODES), {
        form: FOLD_MODES.join(' | '),
        description:
          'open-pr sends a change as a follow-up to the job whose docs pull request is still open (or still running) instead of starting a new job; never starts a new job for every change.',
        example: 'open-pr'
      }),
      'code-repositories': key(
        v.pipe(
          v.array(codeRepository, 'must be a YAML list of repositories'),
          v.maxLength(
            MAX_CODE_REPOSITORIES,
            `must list at most ${MAX_CODE_REPOSITORIES} repositories per docs project`
          )
        ),
        {
          form: `list of owner/repo or {repository, paths, paths-ignore} (at most ${MAX_CODE_REPOSITORIES})`,
          description:
            'In a docs repository: the code repositories this docs project documents, each from its own watermark in the dashboard’s ledger (needs dashboard: true). A repository with its own paths or paths-ignore uses those; the others use the file’s. Empty: this repository’s own changes.',
          example: ['acme/cli', { repository: 'acme/api', paths: ['src/**', '!**/*.test.ts'] }]
        }
      ),
      since: key(duration(SINCE_MS, '30d', '1h to 90d'), {
        form: 'duration, 1h–90d (30d)',
        description:
          'With code-repositories: a code repository the dashboard has no last documented commit for (a first install, a repository just added) is read from this far back, so a dry run previews what the window’s merges would produce. Without it, its newest commit is recorded and its next merge is the first documented.',
        example: '30d'
      }),
      dashboard: key(boolean, {
        form: 'true | false',
        description:
          'Keep the ledger in the dashboard issue: each change run documents everything since the last documented commit and folds into the open docs pull request (needs issues: write). false: no ledger, no folding; every change is its own job. Refused with max-jobs, max-credits, max-open or expire-after, which only the ledger holds (every preset sets one).',
        example: true
      }),
      'dashboard-title': key(
        v.pipe(
          v.string('must be a title of 1 to 256 characters'),
          v.regex(/^[^\r\n]*\S[^\r\n]*$/, 'must be a title on one line, not blank'),
          v.maxLength(256, 'must be a title of at most 256 characters')
        ),
        {
          form: 'title (1–256 characters)',
          description: 'The title of the dashboard issue, when it is created.',
          example: 'Docs agent dashboard'
        }
      ),
      approval: key(choice(APPROVAL_MODES), {
        form: APPROVAL_MODES.join(' | '),
        description:
          'dashboard: changes start nothing; they wait on the dashboard in one batch with a checkbox and what a run would cost, and a tick by someone with required-permission starts them once (needs dashboard: true). A tick lifts quiet-hours, not max-jobs, max-credits or max-open: a ticked batch they hold waits, still approved, changes merged meanwhile join it without another tick, and the first run with room starts it.',
        example: 'dashboard'
      }),
      'max-jobs': key(
        v.pipe(
          v.string('must be a count per window such as 20/month'),
          v.regex(MAX_JOBS_PATTERN, issue =>
            Number(/^(\d+)\//.exec(String(issue.input))?.[1]) > MAX_STARTS
              ? `${MAX_JOBS_MESSAGE}: the dashboard's ledger keeps the newest ${MAX_STARTS} starts, so a higher count would never hold`
              : MAX_JOBS_MESSAGE
          )
        ),
        {
          form: `N/day | N/week | N/month (N 1–${MAX_STARTS}; a month is 30 days)`,
          description:
            'Jobs and follow-ups the agent may start in a rolling window; beyond it, changes wait on the dashboard until a place frees (needs dashboard: true).',
          example: '20/month'
        }
      ),
      'max-credits': key(wholeNumber(1, 1_000_000), {
        form: 'whole number (1–1,000,000)',
        description: `Estimated credits the agent may spend in a rolling 30 days: each job or follow-up counts credits-per-run. Beyond it, changes wait on the dashboard (needs dashboard: true). It must fit one run (credits-per-run) and at most ${MAX_STARTS} runs, the starts the dashboard's ledger keeps.`,
        example: 9000
      }),
      'credits-per-run': key(wholeNumber(1, 10_000), {
        form: 'whole number (1–10,000)',
        description:
          'The estimate of one job or follow-up, for max-credits, the preview and the approval box. 180 is Mintlify’s published average for an update from code changes.',
        example: 180
      }),
      'max-open': key(wholeNumber(1, 100), {
        form: 'whole number (1–100)',
        description:
          'At most this many docs pull requests of change runs open at once, as the dashboard records them (a running job without one yet counts): a change that cannot fold waits on the dashboard (needs dashboard: true). Those of issue, comment and prompt runs are not recorded, so not counted.',
        example: 1
      }),
      'expire-after': key(duration(EXPIRE_AFTER_MS, '14d', '1h to 365d'), {
        form: 'duration, 1h–365d (14d, 2w)',
        description:
          'Change runs close the docs pull requests they started, as the dashboard records them, once nobody but the agent has touched one for this long, with a comment; the next change starts a new job. Those of issue, comment and prompt runs are not recorded, so never closed. Needs dashboard: true and the docs-token input.',
        example: '14d'
      }),
      'keep-label': key(label('a label name of 1 to 50 characters'), {
        form: 'label name',
        description: 'A docs pull request carrying this label never expires.',
        example: 'docs-agent-keep'
      }),
      reviewers: key(choice(REVIEWER_MODES), {
        form: REVIEWER_MODES.join(' | '),
        description:
          'authors: request the authors of the documented pull requests as reviewers of the docs pull request (bots and people without access left out). Needs the docs-token input.',
        example: 'authors'
      }),
      'quiet-hours': key(
        v.pipe(
          v.strictObject(
            {
              days: v.optional(
                v.pipe(
                  v.array(
                    v.picklist(WEEKDAYS, `must be days such as ${WEEKDAYS.slice(5).join(', ')}`),
                    'must be a YAML list of days'
                  ),
                  v.maxLength(7, 'must list each day once at most'),
                  v.check(
                    days => new Set(days).size === days.length,
                    issue => `lists ${twice(issue.input)} twice: list each day once`
                  )
                )
              ),
              from: v.optional(clockTime),
              to: v.optional(clockTime),
              timezone: v.optional(
                v.pipe(
                  v.string('must be a time zone such as Europe/Berlin'),
                  v.check(isTimeZone, 'must be an IANA time zone such as Europe/Berlin or UTC')
                )
              )
            },
            'must be a mapping of days, from, to and timezone'
          ),
          v.check(
            q => (q.from === undefined) === (q.to === undefined),
            'needs both from and to, or neither'
          ),
          v.check(
            q => Boolean(q.days?.length) || q.from !== undefined,
            'needs days, or from and to'
          ),
          // The window is [from, to): one that ends where it starts holds no minute.
          v.forward(
            v.check(
              q => q.from === undefined || q.from !== q.to,
              issue =>
                `from and to are both ${(issue.input as { from?: string }).from}: a window that ends where it starts is never quiet. Write two different times (to may be the next morning), or list whole days in days`
            ),
            ['to']
          )
        ),
        {
          form: '{days, from, to, timezone}',
          description:
            'Hours in which changes start nothing: a change run’s batch waits on the dashboard, and the first run after them (the next merge, a scheduled catch-up) takes it. days are whole days; from and to a daily window (it may cross midnight); timezone defaults to UTC. With approval: dashboard, a tick starts the batch within them, unless max-jobs, max-credits or max-open holds it. Issue, comment and review runs (a person asked) are not held.',
          example: {
            days: ['saturday', 'sunday'],
            from: '20:00',
            to: '07:00',
            timezone: 'Europe/Berlin'
          }
        }
      ),
      'docs-root': key(
        v.pipe(
          v.string('must be a folder path such as docs'),
          v.maxLength(200, 'must be a folder path of at most 200 characters'),
          v.regex(
            /^(?!\/)(?!.*(?:^|\/)\.{1,2}(?:\/|$))[\w.@()+ -]+(?:\/[\w.@()+ -]+)*\/?$/,
            'must be a folder path relative to the repository’s root, without . or .. parts'
          )
        ),
        {
          form: 'folder path, relative, no ..',
          description:
            'The folder Mintlify deploys (where docs.json is), when it is not the repository’s root. Unset: found from the repository’s files.',
          example: 'docs'
        }
      )
    },
    'must be a mapping of keys such as extends: standard'
  ),
  v.title('Mintlify docs agent policy'),
  v.description(
    'The policy of the Mintlify docs agent actions (.github/docs-agent.yml): what starts the agent, which changes count, the budget and the dashboard.'
  )
)

/** The file as written: every key optional. */
export type PolicyFile = v.InferOutput<typeof POLICY_SCHEMA>
export type PolicyKey = keyof PolicyFile

/** The keys, in the file's order. */
export const POLICY_KEYS = Object.keys(POLICY_SCHEMA.entries) as PolicyKey[]

/** What people read about a key: its form, description and example. */
export function keyInfo(name: PolicyKey): KeyInfo {
  const schema = POLICY_SCHEMA.entries[name].wrapped
  return {
    form: v.getTitle(schema) ?? '',
    description: v.getDescription(schema) ?? '',
    example: v.getMetadata(schema).examples[0]
  }
}

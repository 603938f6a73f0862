import * as v from 'valibot'
import { DAY_KEY, MAX_DAYS, decodeStarts, encodeStarts } from './starts.js'

/**
 * The ledger's format, defined once: what the agent has done and owes for one repository, per
 * Mintlify project, as the dashboard issue's signed state holds it. The types are inferred from
 * these schemas. Reading is forgiving field by field and trusts nothing: a field out of shape is
 * dropped or takes its default, an item out of shape leaves its list, and one bad field never
 * loses the rest of the ledger. Older formats are brought to this one by migrations.ts first.
 */

/**
 * The format this action reads and writes (the state's `v`). A change to what a field means or how
 * it is written takes the next number and a migration from this one (migrations.ts). Every format
 * keeps `v` and `issue` where they are: an older action reads only those of a newer state, to say
 * that a newer version wrote it (and where), and never writes over it.
 */
export const LEDGER_FORMAT = 2

/** A change's title as kept: one line, shortened. */
const MAX_TITLE = 100
/** As many as `code-repositories` may list. */
export const MAX_REPOSITORIES = 50
/** Watermarks read: those listed, and room for those a run has not dropped yet. */
const MAX_WATERMARKS = 4 * MAX_REPOSITORIES
/** A repository's names before its renames, kept on its watermark. */
export const MAX_FORMER_NAMES = 5
/** Shown on the dashboard: why a docs pull request was kept open is one line. */
const MAX_KEPT_WHY = 200
/** Identities a ledger remembers as its writers: a token switched more often forgets the oldest. */
export const MAX_WRITERS = 5
/** Why an impact was not measured: one line. */
const MAX_UNSURE = 300
/** What each figure of a ReaderImpact counts, in order. */
export const IMPACT_MEASURES = [
  'humanViews',
  'humanVisitors',
  'aiVisitors',
  'thumbsDown',
  'zeroClickSearches',
  'unansweredQuestions'
] as const

const SHA = /^[0-9a-f]{40}$/
/** A batch id is a short lower-case word (it is shown in a checkbox line); a login is GitHub's. */
const BATCH_ID = /^[a-z0-9]{1,16}$/
const LOGIN = /^[A-Za-z0-9-]{1,39}(\[bot\])?$/
/** A repository's owner/name as GitHub allows them; a branch name of reasonable length. */
const REPOSITORY = /^[A-Za-z0-9-]{1,39}\/[A-Za-z0-9_.-]{1,100}$/
const BRANCH = /^[^\s]{1,255}$/
/** A GraphQL node id (`R_kgDO…`, or an older `MDEwOlJlcG9zaXRvcnk…`). */
const NODE_ID = /^[A-Za-z0-9_=+/-]{1,100}$/
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}$/

// The building blocks. A default that is a list or a record is made anew each time: the fallback
// is the object itself otherwise, and a ledger that changes it would change every later default.

/** A JSON object, not a list. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
/** The same as a schema: its values unchecked. */
const anyRecord = v.custom<Record<string, unknown>>(isRecord)
/** A field left out when missing or out of shape. */
const maybe = <S extends v.GenericSchema>(schema: S) => v.fallback(v.optional(schema), undefined)
/** Any string; empty when out of shape. */
const text = v.fallback(v.string(), '')
/** A string cut to `max` characters. */
const cut = (max: number) =>
  v.pipe(
    v.string(),
    v.transform(s => s.slice(0, max))
  )
/** Any finite number; 0 when out of shape. */
const figure = v.fallback(v.pipe(v.number(), v.finite()), 0)
/** A time after the epoch (ms). */
const time = v.pipe(v.number(), v.finite(), v.gtValue(0))
/** A count above zero, in whole numbers. */
const count = v.pipe(v.number(), v.finite(), v.gtValue(0), v.transform(Math.floor))
/** A whole number above zero. */
const whole = v.pipe(v.number(), v.safeInteger(), v.gtValue(0))
const matching = (pattern: RegExp) => v.pipe(v.string(), v.regex(pattern))
/** A record whose fields are checked one by one; anything else reads as an empty record. */
const fields = <E extends v.ObjectEntries>(entries: E) =>
  v.pipe(
    v.unknown(),
    v.transform(value => (isRecord(value) ? value : {})),
    v.object(entries)
  )
/** A list whose items out of shape are left out; anything else reads as an empty list. */
const listOf = <S extends v.GenericSchema>(item: S) =>
  v.fallback(
    v.pipe(
      v.array(v.unknown()),
      v.transform(items =>
        items.flatMap(value => {
          const read = v.safeParse(item, value)
          return read.success ? [read.output as v.InferOutput<S>] : []
        })
      )
    ),
    () => []
  )

/** A change to the default branch: a merged pull request, or a commit pushed without one. */
const ChangeRefSchema = fields({
  /** The merge (or pushed) commit; empty for a pull request GitHub gave no merge commit. */
  sha: text,
  pr: maybe(v.number()),
  /** The pull request's title, or the commit's first line; shortened. */
  title: v.fallback(cut(MAX_TITLE), ''),
  url: maybe(v.string()),
  /** owner/name of its code repository, in a docs project of several (`code-repositories`). */
  repo: maybe(matching(REPOSITORY))
})

/**
 * Readers before and after a docs pull request merged, in two windows of `days` whole UTC days
 * either side of the merge's day. The figures are in IMPACT_MEASURES' order; null where unknown.
 * Out of shape in any figure, the impact is dropped whole.
 */
const figures = v.pipe(
  v.array(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0)))),
  v.length(IMPACT_MEASURES.length)
)
const ReaderImpactSchema = v.object({
  at: time,
  days: v.pipe(v.number(), v.integer(), v.minValue(1)),
  before: figures,
  after: figures,
  /** The comment on the docs pull request (`impact-comment: pr`). */
  commentUrl: maybe(v.pipe(v.string(), v.startsWith('https://'))),
  /** Why its pages could not be told (no docs root, a site built elsewhere): nothing was measured. */
  unsure: maybe(
    v.pipe(
      v.string(),
      v.nonEmpty(),
      v.transform(s => s.slice(0, MAX_UNSURE))
    )
  ),
  /** It changed no site page: nothing was measured, its terms neither. */
  noPages: maybe(v.literal(true))
})

/** Why a docs pull request older than `expire-after` stays open (a person's work on it), and when. */
const KeptOpenSchema = v.object({
  why: v.pipe(
    v.string(),
    v.nonEmpty(),
    v.transform(s => s.slice(0, MAX_KEPT_WHY))
  ),
  at: time
})

/**
 * Ledger states of a job that may still take a follow-up: running, or its docs pull request open.
 * `max-open` counts these jobs and `expire-after` closes their docs pull requests.
 */
export const LIVE: ReadonlySet<string> = new Set(['active', 'open', 'started'])

const LedgerJobSchema = fields({
  id: text,
  /** The docs pull request as the service reported it: the only link a fold is decided by. */
  prLink: maybe(v.string()),
  /**
   * As last seen: `active` while the agent works; `open`, `merged` or `closed` for its docs pull
   * request; `expired` once this action closed it for `expire-after`.
   */
  state: text,
  startedAt: figure,
  /** When its docs pull request was opened, once read from GitHub (epoch ms). */
  prCreatedAt: maybe(time),
  /** When its docs pull request was merged, closed or expired, once seen (epoch ms). */
  endedAt: maybe(time),
  /** When this action last read its docs pull request for the outcomes (epoch ms). */
  checkedAt: maybe(time),
  changes: listOf(ChangeRefSchema),
  /** Changes folded in beyond those listed. */
  moreChanges: figure,
  /**
   * The code repositories (owner/name) of changes no longer listed, in a docs project of several:
   * the outcomes per repository still count the job for them once its list is cut to fit.
   */
  moreRepositories: maybe(
    v.pipe(
      listOf(matching(REPOSITORY)),
      v.transform(names => names.slice(0, MAX_REPOSITORIES)),
      v.check(names => names.length > 0)
    )
  ),
  /** Its merged docs pull request's reader impact, once measured (`impact-after`): measured once. */
  impact: maybe(ReaderImpactSchema),
  /** Its docs pull request is a draft, as last read: counted apart from those ready for review. */
  draft: maybe(v.literal(true)),
  /** Whether a person (not the agent) committed to its docs pull request, once read after the merge. */
  personCommitted: maybe(v.boolean()),
  /**
   * Its merged docs pull request has more timeline events than one read holds and none of those
   * read is a person's commit: whether one is cannot be known, so it is left out of the zero-touch
   * rate, and not read again.
   */
  touchUnread: maybe(v.literal(true)),
  kept: maybe(KeptOpenSchema),
  /**
   * The git email the agent commits with, from its docs pull request's first commit the first time
   * its activity was read: a person's later rebase or squash does not make their commits the agent's.
   */
  agentEmail: maybe(v.pipe(v.string(), v.regex(EMAIL), v.toLowerCase()))
})

/**
 * A write whose answer never came (or came as a 500, 502 or 504): it may have started a job, so it
 * is not sent again by itself; a tick on its box by someone with `required-permission` sends it again.
 */
const UncertainSchema = fields({
  /** Its id, named in its box on the dashboard (base 36 of `at`); none in entries from before boxes. */
  id: maybe(matching(BATCH_ID)),
  at: figure,
  what: v.fallback(v.picklist(['new-job', 'follow-up']), 'new-job'),
  job: maybe(v.string()),
  changes: listOf(ChangeRefSchema),
  /**
   * Changes of the request beyond those kept, counted: a box sends the kept ones again, and the
   * dashboard says the rest are to be sent with a prompt.
   */
  moreChanges: maybe(count),
  why: text
})

const RunEntrySchema = fields({
  at: figure,
  /** The workflow run's page. */
  url: text,
  /** The run (GITHUB_RUN_ID) and step that wrote it: a re-run of the step resumes its job. */
  run: text,
  step: text,
  /** The newest commit the run covered. */
  head: maybe(v.string()),
  result: text,
  job: maybe(v.string()),
  changes: figure,
  note: text
})

/** Changes not yet handed over: one batch, which later changes join. Not a record: none. */
const WaitingFields = v.object({
  changes: listOf(ChangeRefSchema),
  why: text,
  since: figure,
  /** With `approval: dashboard`: the batch's id, named in its checkbox on the dashboard. */
  batch: maybe(matching(BATCH_ID)),
  /** Who ticked the batch's box, with `required-permission`, and when: it starts once within budget. */
  approvedBy: maybe(matching(LOGIN)),
  approvedAt: maybe(time),
  /** What the run that gated the batch would have done: `new-job`, or the job a follow-up goes to. */
  wouldDo: maybe(
    v.object({
      decision: v.picklist(['new-job', 'follow-up']),
      job: maybe(cut(100)),
      promptBytes: figure
    })
  )
})
const WaitingSchema = v.pipe(
  WaitingFields,
  // A time of approval means nothing without who approved.
  v.transform((w: v.InferOutput<typeof WaitingFields>): v.InferOutput<typeof WaitingFields> =>
    w.approvedBy ? w : { ...w, approvedAt: undefined }
  )
)

/** A repository not read yet: its name as listed, and since when its changes wait. */
const UnreadSchema = v.object({ name: matching(REPOSITORY), since: time })

/** A code repository's last documented commit, and when it moved there. */
const WatermarkSchema = v.object({
  sha: matching(SHA),
  at: figure,
  /** The repository as `code-repositories` spells it. */
  name: matching(REPOSITORY),
  /** Its default branch, as last read. */
  branch: matching(BRANCH),
  /**
   * GitHub's node id of the repository: it survives a rename, so a repository listed under its
   * new name finds the watermark recorded under its old one.
   */
  id: maybe(matching(NODE_ID)),
  /**
   * The names it had before a rename, the latest first: the dashboard's jobs name the changes sent
   * before it under those, and a change they hold is not sent again under its new name.
   */
  formerly: maybe(
    v.pipe(
      listOf(matching(REPOSITORY)),
      v.transform(names => names.slice(0, MAX_FORMER_NAMES)),
      v.check(names => names.length > 0)
    )
  ),
  /**
   * When `code-repositories` stopped listing it: kept (a few, the newest) so that a repository
   * listed again, or renamed, goes on from where it was documented.
   */
  left: maybe(time)
})

/**
 * Entries by repository, keyed by owner/name in lower case: each dropped when out of `schema`'s
 * shape or filed under another name than its own; the first `max` read.
 */
function byRepository<S extends v.GenericSchema<unknown, { name: string }>>(
  schema: S,
  max: number
) {
  return v.pipe(
    anyRecord,
    v.transform(
      entries =>
        Object.fromEntries(
          Object.entries(entries)
            .slice(0, max)
            .flatMap(([key, value]) => {
              const entry = v.safeParse(schema, value)
              return entry.success && key === entry.output.name.toLowerCase()
                ? [[key, entry.output]]
                : []
            })
        ) as Record<string, v.InferOutput<S>>
    )
  )
}

/** Repositories listed but never read yet (GitHub refused them): when a run first said they wait. */
const unreadRepositories = byRepository(UnreadSchema, MAX_REPOSITORIES)

/**
 * The code repositories' watermarks, each dropped when out of shape; the first MAX_WATERMARKS read.
 * Runs drop those of repositories no longer listed when they write; a ledger an older version wrote
 * may hold more than MAX_REPOSITORIES, and a listed repository's must not be the one cut.
 */
const watermarks = byRepository(WatermarkSchema, MAX_WATERMARKS)

/** Day counts: `YYYY-MM-DD` keys with whole counts of 0 to a million; the last MAX_DAYS days. */
const dayCounts = v.pipe(
  anyRecord,
  v.transform(
    days =>
      Object.fromEntries(
        Object.entries(days)
          .filter(
            ([day, n]) =>
              DAY_KEY.test(day) && Number.isInteger(n) && (n as number) >= 0 && (n as number) <= 1e6
          )
          .sort((a, b) => a[0].localeCompare(b[0]))
          .slice(-MAX_DAYS)
      ) as Record<string, number>
  )
)

const ProjectLedgerSchema = fields({
  /** The newest commit of the default branch whose changes have been handed to the agent. */
  documented: maybe(v.object({ sha: matching(SHA), at: figure })),
  /**
   * With `code-repositories`: each code repository's last documented commit, by owner/name in
   * lower case (GitHub's names are case-insensitive). A ledger without it reads as before.
   */
  repositories: maybe(watermarks),
  /**
   * With `code-repositories`: listed repositories no run could read yet, by key: their first look
   * reads their merges since then, as the warning promised, rather than recording their head.
   */
  unread: maybe(unreadRepositories),
  jobs: listOf(LedgerJobSchema),
  /** Changes not yet handed over, and why (over budget, for example). */
  waiting: v.fallback(v.nullable(WaitingSchema), null),
  /**
   * Changes after the last documented commit (and after the waiting ones) beyond one run's bounds,
   * as the last run counted them: the next runs take them, oldest first.
   */
  backlog: maybe(count),
  uncertain: listOf(UncertainSchema),
  /**
   * When each job and follow-up started (epoch ms), for `max-jobs`: those of the last 31 days, the
   * newest MAX_STARTS, written in their compact form (starts.ts). Out of shape: none.
   */
  spend: v.fallback(v.pipe(v.string(), v.transform(decodeStarts), v.array(v.number())), () => []),
  /**
   * Jobs and follow-ups started per UTC day (`2026-11-24`), for the dashboard's 30-day outcomes:
   * only the last 31 days are kept.
   */
  startsByDay: maybe(dayCounts),
  runs: listOf(RunEntrySchema),
  /** Runs older than those listed, counted. */
  olderRuns: figure,
  /** Jobs older than those listed (they left the ledger to keep it within its share), counted. */
  olderJobs: maybe(count),
  /** Uncertain requests older than those listed (beyond the ten kept), counted: their boxes are gone. */
  olderUncertain: maybe(count),
  /**
   * `impact-after` (whole days) of the last run that measured reader impact: while it is set, a
   * merged docs pull request not measured yet is kept with its changes until it can be.
   */
  impactDays: maybe(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(28)))
})

/** The state: its format, where and when it was written, and each Mintlify project's part. */
export const LedgerSchema = v.object({
  /** The format (LEDGER_FORMAT): migrations bring an older one here before this schema reads it. */
  v: v.pipe(v.number(), v.value(LEDGER_FORMAT)),
  /**
   * The dashboard issue the state was written in (its signature covers it): a copy of the state in
   * another issue is refused. None in a state written before states were bound to their issue.
   */
  issue: maybe(whole),
  /** How many times the action has written the state: one more with every write. */
  version: maybe(whole),
  /** When the action wrote it (epoch ms): of several dashboards, the newest state is the ledger. */
  writtenAt: maybe(whole),
  /**
   * A mark of this write alone (random): two runs that wrote from the same state in the same
   * millisecond wrote two states, which `version` and `writtenAt` would not tell apart.
   */
  write: maybe(matching(/^[A-Za-z0-9_-]{1,32}$/)),
  /**
   * Who wrote it: the identities of `github-token` (as GraphQL's viewer names them) that wrote this
   * ledger, the newest last, MAX_WRITERS at most. Their edits of the body are the action's writes
   * for the rollback check, so a team that switches tokens keeps its ledger. None in a state written
   * before states named their writers.
   */
  writers: maybe(
    v.pipe(
      v.array(matching(LOGIN)),
      v.transform(writers => writers.slice(-MAX_WRITERS))
    )
  ),
  /**
   * This ledger started afresh because the state before it was deleted or could not be read: when
   * (the edit that did it, epoch ms), why, and by whom. Shown on the page: what that state held is
   * lost.
   */
  afresh: maybe(
    v.object({
      at: v.pipe(v.number(), v.finite(), v.minValue(0)),
      why: v.picklist(['deleted', 'unreadable']),
      by: maybe(matching(LOGIN))
    })
  ),
  projects: v.fallback(v.record(v.string(), ProjectLedgerSchema), () => ({}))
})

export type Ledger = v.InferOutput<typeof LedgerSchema>
export type ProjectLedger = v.InferOutput<typeof ProjectLedgerSchema>
export type LedgerJob = v.InferOutput<typeof LedgerJobSchema>
export type ChangeRef = v.InferOutput<typeof ChangeRefSchema>
export type ReaderImpact = v.InferOutput<typeof ReaderImpactSchema>
export type KeptOpen = v.InferOutput<typeof KeptOpenSchema>
export type Uncertain = v.InferOutput<typeof UncertainSchema>
export type RunEntry = v.InferOutput<typeof RunEntrySchema>
export type Waiting = v.InferOutput<typeof WaitingSchema>
export type Watermark = v.InferOutput<typeof WatermarkSchema>

export const emptyLedger = (): Ledger => ({ v: LEDGER_FORMAT, projects: {} })

/** A project with nothing recorded: every field at its default. */
export const emptyProject = (): ProjectLedger => v.parse(ProjectLedgerSchema, {})

/** The state as written: in this format, each project's starts in their compact form. */
export function storedLedger(ledger: Ledger): Record<string, unknown> {
  const projects = Object.entries(ledger.projects).map(([id, project]) => [
    id,
    { ...project, spend: encodeStarts(project.spend) }
  ])
  return { ...ledger, v: LEDGER_FORMAT, projects: Object.fromEntries(projects) }
}

/** A change's title as the ledger keeps it: one line, shortened. */
export const ledgerTitle = (text: string): string => {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > MAX_TITLE ? `${line.slice(0, MAX_TITLE - 1)}…` : line
}

import { type DocsSite, docsSite, readPlan } from '../docs-site/site.js'
import { type GitHubApi, describeGitHubError } from '../github/api.js'
import { readRepoFiles } from '../github/repo-files.js'
import type { ReadLimits } from '../mintlify/analytics-gaps.js'
import type { ApiClient } from '../mintlify/client.js'
import { RecordSigner } from '../records/record.js'
import { bytes } from '../runner/text.js'
import { type ChangeText, type Gap, anyTieable, tieGaps, topGaps } from './causes.js'
import type { ChangesSettings } from './changes-settings.js'
import { readChangesSince } from './changes.js'
import type { Cause, CausesSection, GapsReport } from './report.js'
import type { GapsSettings } from './settings.js'
import { splitAtMerges } from './split.js'

export interface TieDeps {
  client: ApiClient
  github: () => GitHubApi
  limits: ReadLimits
  askedAt: ReadonlyMap<string, readonly number[]>
  /** Wall-clock now: the end of an open range. */
  now: number
}

/**
 * Ties the report's top gaps to the changes since `changes-since` (see causes.ts) and splits each
 * tied gap's count at its change's merge day (split.ts), within the run's analytics budget.
 * GitHub is not asked at all when no top gap has a term a change could carry.
 */
export async function tieToChanges(
  report: GapsReport,
  settings: GapsSettings,
  changes: ChangesSettings,
  deps: TieDeps
): Promise<CausesSection> {
  const section: CausesSection = {
    since: changes.since.text,
    source: null,
    changes: 0,
    githubRequests: 0,
    splitRequests: 0,
    notices: [],
    entries: []
  }
  const gaps = topGaps(report)
  if (!anyTieable(gaps)) {
    section.notices.push(
      gaps.length
        ? 'No top gap has a distinctive term (an identifier, a flag, an endpoint, a config key, a page path): GitHub was not read.'
        : 'There are no gaps to tie to changes: GitHub was not read.'
    )
    return section
  }
  const window = { from: settings.dateFrom?.at, to: settings.dateTo?.at ?? deps.now }
  const github = deps.github()
  const read = await readChangesSince(github, {
    owner: changes.owner,
    repo: changes.repo,
    projectId: settings.projectId,
    signer: new RecordSigner(settings.apiKey),
    since: changes.since.at,
    window
  })
  Object.assign(section, {
    source: read.source,
    changes: read.changes.length,
    githubRequests: read.requests
  })
  section.notices.push(...read.notices)
  const site = await changesSite(github, gaps, read.changes, section)
  const ties = tieGaps(gaps, read.changes, window, site)
  const split = await splitAtMerges(ties, {
    client: deps.client,
    projectId: settings.projectId,
    range: {
      dateFrom: settings.dateFrom?.text,
      dateTo: settings.dateTo?.text,
      fromAt: settings.dateFrom?.at
    },
    limits: deps.limits,
    askedAt: deps.askedAt
  })
  section.entries = split.causes
  section.splitRequests = split.requests
  section.notices.push(...split.notices)
  return section
}

/**
 * The docs site of the changes' repository, for tying page gaps to the files that are those pages
 * (docs-site/): one tree read and its configuration, only when a page gap and a Markdown file are
 * there to tie. Undefined, said in a notice, when its pages cannot be told.
 */
async function changesSite(
  github: GitHubApi,
  gaps: readonly Gap[],
  changes: readonly ChangeText[],
  section: CausesSection
): Promise<DocsSite | undefined> {
  const near = changes.flatMap(c => c.files).filter(f => /\.mdx?$/i.test(f))
  if (!gaps.some(g => g.kind === 'page') || !near.length) return undefined
  try {
    const tree = await readRepoFiles(github, paths => readPlan(paths, near))
    section.githubRequests += tree.requests
    const site = docsSite(tree, tree.texts, near)
    if (!site.unsure) return site
    section.notices.push(
      `Page gaps tie only to changes that name their path: ${site.unsure}, so which site page a changed file is cannot be told.`
    )
  } catch (error) {
    section.notices.push(
      `Page gaps tie only to changes that name their path: the repository's files could not be listed (${describeGitHubError(error)}).`
    )
  }
  return undefined
}

/** The `causes` output's most bytes: GitHub keeps an output to 1 MB a job, shared with the rest. */
export const MAX_CAUSES_BYTES = 64_000

/** The `causes` output: the entries as a JSON array, the last left out until it fits. */
export function causesOutput(entries: readonly Cause[]): string {
  for (let n = entries.length; n > 0; n--) {
    const json = JSON.stringify(entries.slice(0, n))
    if (bytes(json) <= MAX_CAUSES_BYTES) return json
  }
  return '[]'
}

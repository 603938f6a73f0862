import type { DocsRepository } from '../docs-site/repository.js'
import { SitePages } from '../docs-site/site-pages.js'
import { maybeSpec, maybeSpecPath } from '../docs-site/site.js'
import { type GitHubApi, describeGitHubError } from '../github/api.js'
import type { ReadLimits } from '../mintlify/analytics-gaps.js'
import type { ApiClient } from '../mintlify/client.js'
import { loadPolicy, repositoryPolicyReader } from '../policy/load.js'
import { RecordSigner } from '../records/record.js'
import { CancelledError, ExplainedError } from '../runner/errors.js'
import { bytes } from '../runner/text.js'
import {
  type ChangeText,
  type Gap,
  type MergeWindow,
  anyTieable,
  tieGaps,
  topGaps
} from './causes.js'
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
 * tied gap's count at its change's merge day (split.ts), within the run's request cap.
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
  const site = await changesSite(github, changes, gaps, read.changes, section)
  const rendered = site ? await specPages(site, read.changes, window, section) : undefined
  if (site) section.githubRequests += site.requests
  const ties = tieGaps(gaps, read.changes, window, site?.site, rendered)
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

/** A file a page gap could be: a page, or a spec that renders pages. */
const siteFile = (path: string): boolean => /\.mdx?$/i.test(path) || maybeSpecPath(path)

/**
 * The docs site of the changes' repository, for tying page gaps to the files that are those pages
 * or render them (docs-site/, the mapping reader impact uses): the policy file's `docs-root`, one
 * tree read and the files that decide, only when a page gap and a Markdown file or a spec are there
 * to tie. Undefined, said in a notice, when its pages cannot be told.
 */
async function changesSite(
  github: GitHubApi,
  where: Pick<ChangesSettings, 'owner' | 'repo'>,
  gaps: readonly Gap[],
  changes: readonly ChangeText[],
  section: CausesSection
): Promise<SitePages | undefined> {
  const near = changes.flatMap(c => c.files).filter(siteFile)
  if (!gaps.some(g => g.kind === 'page') || !near.length) return undefined
  const repo: DocsRepository = {
    tree: () => github.treePaths(),
    file: (path, maxBytes) => github.fileText(path, maxBytes),
    files: paths => github.fileTexts(paths)
  }
  const docsRoot = await policyDocsRoot(github, `${where.owner}/${where.repo}`, section)
  try {
    const pages = await SitePages.open(repo, near, { docsRoot })
    section.notices.push(...pages.site.notes)
    if (!pages.site.unsure) return pages
    section.githubRequests += pages.requests
    section.notices.push(
      `Page gaps tie only to changes that name their path: ${pages.site.unsure}, so which site page a changed file is cannot be told.`
    )
  } catch (error) {
    section.notices.push(
      `Page gaps tie only to changes that name their path: the repository's files could not be listed (${describeGitHubError(error)}).`
    )
  }
  return undefined
}

/**
 * The folder the repository's policy file names as its docs root (`docs-root`), read from the
 * default branch as the agent actions read it; undefined without the file or the key. A file that
 * cannot be read or has a problem is a notice: the docs root is then found from the files.
 */
async function policyDocsRoot(
  github: GitHubApi,
  repository: string,
  section: CausesSection
): Promise<string | undefined> {
  section.githubRequests++
  try {
    const read = repositoryPolicyReader(github, repository)
    return (await loadPolicy({ config: '', repository, read })).docsRoot
  } catch (error) {
    if (!(error instanceof ExplainedError) || error instanceof CancelledError) throw error
    section.notices.push(
      `Page gaps are mapped as if the policy file named no 'docs-root': ${error.message.replace(/\n- /g, ' ').replace(/\n/g, ' ')}`
    )
    return undefined
  }
}

/** Changes to an OpenAPI spec whose rendered pages are looked for at most: the newest in range. */
const MAX_SPEC_CHANGES = 3

/**
 * The pages each change to an OpenAPI spec renders again (the operation pages the navigation names,
 * and the pages whose frontmatter renders its operations), for the changes merged in the window,
 * the newest MAX_SPEC_CHANGES; what could not be read is a notice.
 */
async function specPages(
  pages: SitePages,
  changes: readonly ChangeText[],
  window: MergeWindow,
  section: CausesSection
): Promise<Map<ChangeText, readonly string[]>> {
  const rendered = new Map<ChangeText, readonly string[]>()
  const specChanges = changes
    .filter(c => (window.from === undefined || c.mergedAt >= window.from) && c.mergedAt < window.to)
    .filter(c => c.files.some(f => maybeSpec(pages.site, f)))
    .sort((a, b) => b.mergedAt - a.mergedAt)
  if (specChanges.length > MAX_SPEC_CHANGES)
    section.notices.push(
      `${specChanges.length} changes in range changed an OpenAPI spec: the pages rendered by the newest ${MAX_SPEC_CHANGES} were looked for, not those of the others.`
    )
  for (const change of specChanges.slice(0, MAX_SPEC_CHANGES)) {
    try {
      const found = await pages.pagesOf(change.files.map(path => ({ path, status: 'modified' })))
      rendered.set(
        change,
        found.pages.map(p => p.path)
      )
      for (const note of found.notes)
        if (!section.notices.includes(note) && !pages.site.notes.includes(note))
          section.notices.push(note)
    } catch (error) {
      section.notices.push(
        `The pages rendered by the OpenAPI spec ${changeLabel(change)} changed could not be read (${describeGitHubError(error)}): page gaps tie to it only by its files and text.`
      )
      break
    }
  }
  return rendered
}

const changeLabel = (change: ChangeText): string =>
  change.pr !== undefined ? `#${change.pr}` : change.sha ? change.sha.slice(0, 7) : change.title

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

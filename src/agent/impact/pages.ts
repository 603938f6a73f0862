import type { ChangedFile, GitHubApi } from '../../github/api.js'
import { readRepoFiles } from '../../github/repo-files.js'
import type { Operation } from '../../docs-site/navigation.js'
import { type PageChange, changedPages, docsSite, readPlan } from '../../docs-site/site.js'

/** The pages of a docs pull request as Mintlify serves them, or why they cannot be told. */
export interface PullPages {
  pages: PageChange[]
  /** Why the pages cannot be told (no docs root, a site built elsewhere): nothing is measured. */
  unsure?: string
  /** OpenAPI operations whose spec the pull request changed, as the navigation names them. */
  operations: Operation[]
  /** Specs the pull request changed from which the navigation generates every operation. */
  wholeSpecs: string[]
}

/**
 * The pages a docs pull request's files are on its repository's site (docs-site/): one read of the
 * default branch's tree, and its docs root's configuration and `.mintignore`, whatever the layout.
 */
export async function pagesOfPull(
  docs: Pick<GitHubApi, 'treePaths' | 'fileText'>,
  files: readonly ChangedFile[]
): Promise<PullPages> {
  const near = files.filter(f => f.status !== 'removed').map(f => f.path)
  const tree = await readRepoFiles(docs, paths => readPlan(paths, near))
  const site = docsSite(tree, tree.texts, near)
  if (site.unsure) return { pages: [], unsure: site.unsure, operations: [], wholeSpecs: [] }
  return changedPages(site, files)
}

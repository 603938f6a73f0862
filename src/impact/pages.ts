import type { ChangedFile } from '../github/api.js'
import type { DocsPull, DocsPulls } from '../github/docs-pulls.js'
import type { DocsRepository } from '../docs-site/repository.js'
import { type ChangePages, pagesOfChange } from '../docs-site/site-pages.js'
import type { SiteOptions } from '../docs-site/site.js'

/** The pages of a docs pull request as Mintlify serves them, or why they cannot be told. */
export type PullPages = ChangePages

/** The docs repository as the page mapping reads it, through the door (its one access check). */
export const docsRepository = (
  docs: DocsPulls,
  where: Pick<DocsPull, 'owner' | 'repo'>
): DocsRepository => ({
  tree: () => docs.tree(where),
  file: (path, maxBytes) => docs.fileText(where, path, maxBytes),
  files: paths => docs.fileTexts(where, paths)
})

/**
 * The pages a docs pull request's files are on its repository's site (docs-site/site-pages.ts, the
 * mapping the gaps ties use too): one read of the default branch's tree and the files that decide,
 * and when it changed an OpenAPI spec, that spec and the frontmatter of the pages that may render it.
 */
export function pagesOfPull(
  docs: DocsRepository,
  files: readonly ChangedFile[],
  options: SiteOptions = {}
): Promise<PullPages> {
  return pagesOfChange(docs, files, options)
}

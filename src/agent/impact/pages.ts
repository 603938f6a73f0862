import type { ChangedFile, GitHubApi } from '../../github/api.js'
import { readRepoFiles } from '../../github/repo-files.js'
import type { Operation } from '../../docs-site/navigation.js'
import {
  type PageChange,
  changedPages,
  docsSite,
  readPlan,
  specPages,
  specsToRead
} from '../../docs-site/site.js'

/** The pages of a docs pull request as Mintlify serves them, or why they cannot be told. */
export interface PullPages {
  pages: PageChange[]
  /** Why the pages cannot be told (no docs root, a site built elsewhere): nothing is measured. */
  unsure?: string
  /** OpenAPI operations whose spec the pull request changed and whose pages could not be told. */
  operations: Operation[]
  /** Specs it changed that generate every operation, whose pages could not be told. */
  wholeSpecs: string[]
}

/**
 * The pages a docs pull request's files are on its repository's site (docs-site/): one read of the
 * default branch's tree, and its docs root's configuration and `.mintignore`, whatever the layout;
 * and when it changed an OpenAPI spec the navigation uses, that spec (two at most), for the
 * operation pages generated from it.
 */
export async function pagesOfPull(
  docs: Pick<GitHubApi, 'treePaths' | 'fileText'>,
  files: readonly ChangedFile[]
): Promise<PullPages> {
  const near = files.filter(f => f.status !== 'removed').map(f => f.path)
  const tree = await readRepoFiles(docs, paths => readPlan(paths, near))
  const site = docsSite(tree, tree.texts, near)
  if (site.unsure) return { pages: [], unsure: site.unsure, operations: [], wholeSpecs: [] }
  const changed = changedPages(site, files)
  const texts = new Map<string, string>()
  for (const spec of specsToRead(site, changed)) {
    const text = await docs.fileText(spec)
    if (typeof text === 'string') texts.set(spec, text)
  }
  const specs = await specPages(site, changed, texts)
  const known = new Set(changed.pages.map(p => p.path))
  return {
    pages: [...changed.pages, ...specs.pages.filter(p => !known.has(p.path))],
    operations: specs.operations,
    wholeSpecs: specs.wholeSpecs
  }
}

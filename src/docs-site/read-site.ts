import { type FileRead, type DocsRepository, MAX_READ_BYTES } from './repository.js'
import { type DocsSite, type SiteOptions, buildSite } from './site.js'

/** Files read to build a site at most, beside the tree: a configuration, its refs, `.mintignore`. */
export const MAX_SITE_READS = 40

/**
 * The site of a docs repository's default branch: one read of its tree, then the files that decide
 * (site.ts says which, round by round: the configuration, the files its refs name, `.mintignore`),
 * MAX_SITE_READS at most; a file past that is taken as not read, and the site says what it missed.
 * `near`: the changed files, for choosing the docs root. Throws what the repository throws (a
 * refusal, an outage); a file too large or missing is no error.
 */
export async function readDocsSite(
  repo: DocsRepository,
  near: readonly string[],
  options: SiteOptions = {}
): Promise<{ site: DocsSite; requests: number }> {
  const tree = await repo.tree()
  let requests = 1
  const reads = new Map<string, FileRead>()
  for (;;) {
    const { site, need } = buildSite(tree, reads, near, options)
    const fresh = [...new Set(need)].filter(p => !reads.has(p))
    if (!fresh.length) return { site, requests }
    for (const path of fresh) {
      if (requests > MAX_SITE_READS) {
        reads.set(path, { problem: 'not-read' })
        continue
      }
      requests++
      reads.set(path, await repo.file(path, MAX_READ_BYTES))
    }
  }
}

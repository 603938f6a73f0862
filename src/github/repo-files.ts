import type { GitHubApi } from './api.js'

/** Files read beside the tree at most: the few that decide what the tree means. */
const MAX_FILES = 3

/** A repository's default branch as one tree read and the few files `plan` picked from it. */
export interface RepoFiles {
  paths: string[]
  truncated: boolean
  /** The picked files' texts, by path (a file GitHub did not have is left out). */
  texts: Map<string, string>
  /** GitHub requests made. */
  requests: number
}

/**
 * The default branch's file paths in one request, then the texts of the files `plan` names among
 * them (MAX_FILES at most): a fixed number of requests whatever the repository's layout.
 */
export async function readRepoFiles(
  github: Pick<GitHubApi, 'treePaths' | 'fileText'>,
  plan: (paths: readonly string[]) => string[]
): Promise<RepoFiles> {
  const tree = await github.treePaths()
  const files: RepoFiles = { ...tree, texts: new Map(), requests: 1 }
  for (const path of plan(tree.paths).slice(0, MAX_FILES)) {
    files.requests++
    // A file missing or too large is left out, as a file GitHub did not have.
    const text = await github.fileText(path)
    if (typeof text === 'string') files.texts.set(path, text)
  }
  return files
}

/**
 * What the page mapping reads of a docs repository's default branch, and how a read can end. The
 * flows hand it GitHub's calls (src/github: `treePaths`, `fileText`, `fileTexts`), which fit it;
 * the mapping never reaches GitHub itself.
 */

/**
 * A file as read: its text, or why there is none. `too-large` is no refusal and never asks for a
 * permission; `not-read` is a file the mapping chose not to read (a bound it said).
 */
export type FileRead =
  | string
  | { problem: 'missing' }
  | { problem: 'too-large'; limit?: number; size?: number }
  | { problem: 'not-read' }

export interface DocsRepository {
  /** Every file path of the default branch, in one request; `truncated` when GitHub listed part. */
  tree(): Promise<{ paths: string[]; truncated: boolean }>
  /** One file, `maxBytes` at most: one request. */
  file(path: string, maxBytes: number): Promise<FileRead>
  /** Up to FILES_PER_READ files at once, for what their first lines say: one request. */
  files(paths: readonly string[]): Promise<Map<string, FileRead>>
}

/** Files read at once by `files` (GitHub's GraphQL, one request). */
export const FILES_PER_READ = 50

/** Bytes of one configuration or spec file read at most. */
export const MAX_READ_BYTES = 10 * 1024 * 1024

/** The text of a read, or undefined when there is none. */
export const textOf = (read: FileRead | undefined): string | undefined =>
  typeof read === 'string' ? read : undefined

/** Why a file has no text, in a few words for a note: `over 10 MB`, `not read`, `missing`. */
export function whyNoText(read: FileRead | undefined): string {
  if (read === undefined || typeof read === 'string') return 'not read'
  if (read.problem === 'too-large') {
    const limit = read.limit ?? read.size
    return limit ? `over ${megabytes(limit)}, more than is read` : 'too large to read'
  }
  return read.problem === 'missing' ? 'missing' : 'not read'
}

const megabytes = (bytes: number): string => `${Math.round(bytes / (1024 * 1024))} MB`

import { MAX_FORMER_NAMES, type ProjectLedger, type Watermark } from '../../records/ledger.js'
import { repositoryKey } from '../../policy/code-repositories.js'
import type { ChangeBatch, RepositoryPart } from '../batch.js'

/**
 * Watermarks of repositories `code-repositories` no longer lists, kept: a repository listed again,
 * or listed under its new name after a rename, goes on from where it was documented rather than
 * taking a first look. The newest few are kept; the ledger holds as many as may be listed besides.
 */
const MAX_LEFT = 10

/**
 * A repository's watermark: under its name, or (after a rename) the one recorded under its old
 * name with the same GitHub node id.
 */
export function watermarkOf(
  project: ProjectLedger,
  name: string,
  id?: string
): { key: string; mark: Watermark } | undefined {
  const key = repositoryKey(name)
  const own = project.repositories?.[key]
  if (own) return { key, mark: own }
  if (!id) return undefined
  const moved = Object.entries(project.repositories ?? {}).find(([, m]) => m.id === id)
  return moved && { key: moved[0], mark: moved[1] }
}

/**
 * Every name the ledger knows a repository by, as keys: the one listed now and, after a rename,
 * those its watermark (`mark`, watermarkOf's) was recorded under. The dashboard's jobs name each
 * change under the name it was sent under.
 */
export function namesOf(name: string, mark?: Watermark): Set<string> {
  const names = [name, ...(mark ? [mark.name, ...(mark.formerly ?? [])] : [])]
  return new Set(names.map(repositoryKey))
}

/**
 * A repository's watermark moves to `sha`, under its listed name, with its node id. Moved from
 * its old name after a rename, it keeps the names it had (`formerly`).
 */
export function setWatermark(
  project: ProjectLedger,
  part: Pick<RepositoryPart, 'name' | 'branch' | 'id'>,
  sha: string,
  at: number
): void {
  const marks = (project.repositories ??= {})
  const key = repositoryKey(part.name)
  const moved = part.id
    ? Object.entries(marks).filter(([k, mark]) => mark.id === part.id && k !== key)
    : []
  const formerly = formerNames(
    key,
    moved.flatMap(([, mark]) => [mark.name, ...(mark.formerly ?? [])]),
    marks[key]?.formerly
  )
  marks[key] = {
    sha,
    at,
    name: part.name,
    branch: part.branch,
    ...(part.id ? { id: part.id } : {}),
    ...(formerly.length ? { formerly } : {})
  }
  // Read from now on under its new name: the record under its old one has done its work.
  for (const [old] of moved) delete marks[old]
  if (project.unread) delete project.unread[key]
}

/** The names a repository had, the latest first, once each, without the one it has (`key`). */
function formerNames(key: string, latest: string[], earlier: string[] = []): string[] {
  const byKey = new Map<string, string>()
  for (const name of [...latest, ...earlier])
    if (repositoryKey(name) !== key && !byKey.has(repositoryKey(name)))
      byKey.set(repositoryKey(name), name)
  return [...byKey.values()].slice(0, MAX_FORMER_NAMES)
}

/**
 * After a write: the repositories the run listed but could not read, with no watermark, are noted
 * with the time they began to wait (kept from the first run that said so); those no longer listed
 * leave that list. The watermarks of repositories no longer listed are marked as left and kept,
 * the newest MAX_LEFT, so that their return takes up where they were.
 */
export function settleListed(
  project: ProjectLedger,
  batch: Pick<ChangeBatch, 'listed' | 'unread'>,
  at: number
): void {
  const listed = batch.listed && new Set(batch.listed)
  if (!listed) return
  for (const name of batch.unread ?? []) {
    const key = repositoryKey(name)
    if (project.repositories?.[key] || !listed.has(key)) continue
    project.unread ??= {}
    project.unread[key] ??= { name, since: at }
  }
  for (const key of Object.keys(project.unread ?? {}))
    if (!listed.has(key)) delete project.unread?.[key]
  if (project.unread && !Object.keys(project.unread).length) delete project.unread
  const marks = project.repositories
  if (!marks) return
  for (const [key, mark] of Object.entries(marks)) {
    if (listed.has(key)) delete mark.left
    else mark.left ??= at
  }
  const left = Object.entries(marks)
    .filter(([, m]) => m.left !== undefined)
    .sort((a, b) => (b[1].left ?? 0) - (a[1].left ?? 0))
  for (const [key] of left.slice(MAX_LEFT)) delete marks[key]
}

/** The watermarks of the repositories listed now: what the dashboard shows. */
export const listedWatermarks = (project: ProjectLedger): Watermark[] =>
  Object.values(project.repositories ?? {}).filter(m => m.left === undefined)

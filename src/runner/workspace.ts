import {
  type Stats,
  closeSync,
  lstatSync,
  openSync,
  readSync,
  realpathSync,
  statSync
} from 'node:fs'
import path from 'node:path'
import { InputError } from './errors.js'

// Files the workflow names: read or written inside the workspace only, whatever links it holds.
// The toolkit has no check that keeps a path inside the workspace (@actions/glob follows links by
// default), hence this.

/** The workspace files are read from and written to: the runner's, or here when run by hand. */
export const workspaceOf = (env: NodeJS.ProcessEnv): string => env.GITHUB_WORKSPACE || process.cwd()

/**
 * Resolves a path the action will write, relative to the workspace, and refuses one that leaves it
 * (through `..`, an absolute path, or a symlinked folder).
 */
function resolveInWorkspace(name: string, file: string, workspace: string): string {
  const root = realpathSync(workspace)
  const full = path.resolve(root, file)
  const inside = (p: string): boolean => {
    const rel = path.relative(root, p)
    return rel !== '' && !leaves(rel)
  }
  if (!inside(full)) {
    throw new InputError(
      `Input '${name}' must be a file path inside the workspace; '${file}' is outside it.`
    )
  }
  // The deepest folder that exists decides where the file really lands.
  let dir = path.dirname(full)
  for (;;) {
    try {
      const real = realpathSync(dir)
      if (real !== root && !inside(real)) {
        throw new InputError(
          `Input '${name}': '${file}' leads outside the workspace through a symbolic link.`
        )
      }
      break
    } catch (error) {
      if (error instanceof InputError) throw error
      dir = path.dirname(dir)
    }
  }
  return full
}

/**
 * Reads a text file the workflow names, inside the workspace only: its real path (symbolic links
 * followed) must stay inside, it must be a regular file, and at most `maxBytes` are read whatever
 * its reported size (files under /proc report 0).
 */
export function readWorkspaceFile(
  name: string,
  file: string,
  workspace: string,
  maxBytes: number
): string {
  const root = realpathSync(workspace)
  let real: string
  try {
    real = realpathSync(path.resolve(root, file))
  } catch {
    throw new InputError(
      `Input '${name}': no file at '${file}'. Paths are relative to the workspace; did the workflow run actions/checkout first?`
    )
  }
  const rel = path.relative(root, real)
  if (leaves(rel)) {
    throw new InputError(
      `Input '${name}' must name a file inside the workspace; '${file}' leads outside it.`
    )
  }
  if (!statSync(real).isFile())
    throw new InputError(`Input '${name}' must name a regular file; '${file}' is not one.`)
  const buffer = Buffer.alloc(maxBytes + 1)
  const fd = openSync(real, 'r')
  let size = 0
  try {
    for (
      let n;
      size < buffer.length && (n = readSync(fd, buffer, size, buffer.length - size, null)) > 0;
    )
      size += n
  } finally {
    closeSync(fd)
  }
  if (size > maxBytes) {
    throw new InputError(
      `Input '${name}': '${file}' is larger than ${maxBytes} bytes, the most it may hold.`
    )
  }
  return buffer.subarray(0, size).toString('utf8')
}

/**
 * A file the action will write: inside the workspace (resolveInWorkspace), and not a folder or a
 * device, which is found now rather than after every request was made.
 */
export function resolveOutputFile(name: string, shown: string, workspace: string): string {
  const file = resolveInWorkspace(name, shown, workspace)
  checkWritableTarget(name, shown, file)
  return file
}

function checkWritableTarget(name: string, shown: string, file: string): void {
  let stat: Stats
  try {
    stat = lstatSync(file)
  } catch {
    return // Not there yet: it will be created.
  }
  if (!stat.isFile() && !stat.isSymbolicLink()) {
    throw new InputError(
      `Input '${name}': '${shown}' exists and is not a file (a folder?); name a file to write instead.`
    )
  }
}

/** A relative path that climbs out (`..`, `../x`), or an absolute one; `..notes.md` stays inside. */
const leaves = (rel: string): boolean =>
  rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)

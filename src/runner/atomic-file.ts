import { randomBytes } from 'node:crypto'
import { type FileHandle, lstat, mkdir, open, readdir, rename, rm } from 'node:fs/promises'
import path from 'node:path'

const SUFFIX = '.partial'
const prefix = (file: string): string => `.${path.basename(file)}.`

/**
 * A file written under a temporary name beside its target and renamed into place only when it is
 * complete, so a failed run never leaves a half-written file under the real name. The temporary
 * file has a random name and is created exclusively (O_EXCL), so a planted symbolic link, which
 * checked-out content can hold, is never written through; the rename replaces a link at the
 * target itself rather than following it. Not write-file-atomic: its temporary name is predictable
 * (a hash of the process id and a counter) and it takes the whole content at once.
 */
export class PartialFile {
  private constructor(
    readonly handle: FileHandle,
    private readonly temp: string,
    private readonly target: string
  ) {}

  /** Creates the folder if needed, removes what killed runs left behind, opens the temporary file. */
  static async open(target: string): Promise<PartialFile> {
    await mkdir(path.dirname(target), { recursive: true })
    await removeLeftovers(target)
    const temp = path.join(
      path.dirname(target),
      `${prefix(target)}${randomBytes(8).toString('hex')}${SUFFIX}`
    )
    return new PartialFile(await open(temp, 'wx', 0o644), temp, target)
  }

  async commit(): Promise<void> {
    await this.handle.close()
    await rename(this.temp, this.target)
  }

  /** Drops the temporary file; the target is left as it was. */
  async discard(): Promise<void> {
    await this.handle.close().catch(() => undefined)
    await rm(this.temp, { force: true })
  }
}

/** Writes `text` to `file` whole or not at all. */
export async function writeFileAtomically(file: string, text: string): Promise<void> {
  const partial = await PartialFile.open(file)
  try {
    await partial.handle.writeFile(text)
    await partial.commit()
  } catch (error) {
    await partial.discard()
    throw error
  }
}

/** Temporary files of earlier runs that were killed before they could clean up. */
async function removeLeftovers(target: string): Promise<void> {
  const dir = path.dirname(target)
  for (const name of await readdir(dir)) {
    if (!name.startsWith(prefix(target)) || !name.endsWith(SUFFIX)) continue
    const full = path.join(dir, name)
    // lstat: a link is removed as a link, never followed.
    const stat = await lstat(full).catch(() => undefined)
    if (stat && (stat.isFile() || stat.isSymbolicLink())) await rm(full, { force: true })
  }
}

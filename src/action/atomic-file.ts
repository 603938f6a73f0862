import { mkdir, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'

/**
 * The temporary name beside `file` that a report is written under before it is renamed into place,
 * so a failed run never leaves a half-written file under the real name.
 */
export function partialPath(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.partial`)
}

/** Writes `text` to `file` whole or not at all: a temporary file beside it, then a rename. */
export async function writeFileAtomically(file: string, text: string): Promise<void> {
  const temp = partialPath(file)
  await mkdir(path.dirname(file), { recursive: true })
  try {
    await writeFile(temp, text)
    await rename(temp, file)
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  }
}

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { perWorker } from './per-worker.js'

// Kept per worker, not per module: a test may load the modules afresh (afresh.ts), and the folders
// must still be found by the setup file's hook (test/support/setup.ts).
const made = (): Set<string> => perWorker('temporary-folders', () => new Set<string>())

/**
 * A new folder in the system's temporary folder, removed once the test file has ended (its
 * tests, and its own afterAll hooks, which may still read it or stop what writes to it).
 */
export function temporaryFolder(prefix: string): string {
  const folder = mkdtempSync(path.join(tmpdir(), prefix))
  made().add(folder)
  return folder
}

/** Removes the folders temporaryFolder made; run after each test file. */
export function removeTemporaryFolders(): void {
  for (const folder of made()) rmSync(folder, { recursive: true, force: true })
  made().clear()
}

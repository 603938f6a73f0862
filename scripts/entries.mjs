import { readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'

/** The bundles users run: each action.yml's runs.main points at one of these. */
export const ENTRIES = [
  { source: 'src/index.ts', out: '', action: 'action.yml' },
  { source: 'src/post.ts', out: 'post', action: 'action.yml' },
  { source: 'src/visitors/index.ts', out: 'visitors', action: 'visitors/action.yml' }
]

/** A string found once in each copy of undici; more than one copy bloats the bundle and slows start-up. */
export const UNDICI_MARKER = 'undici.error.UND_ERR_BPL_MISSING_UPSTREAM'

/** Copies of undici in one entry's folder: the entry and the chunks it loads lazily sit side by side. */
export function undiciCopies(folder) {
  return readdirSync(folder)
    .filter(f => f.endsWith('.js'))
    .map(f => readFileSync(path.join(folder, f), 'utf8').split(UNDICI_MARKER).length - 1)
    .reduce((a, b) => a + b, 0)
}

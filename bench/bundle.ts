import { readFileSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { ENTRIES, loadedFiles, undiciCopies } from '../scripts/entries.mjs'
import { ROOT } from './processes.js'
import { type Goal, goal } from './stats.js'

export interface BundleResult {
  rows: { file: string; bytes: number; gzip: number }[]
  entries: { entry: string; startBytes: number; allBytes: number; undici: number }[]
  goals: Goal[]
}

const size = (files: string[]) => files.reduce((sum, f) => sum + statSync(f).size, 0)

export function bundleBench(): BundleResult {
  const dist = path.join(ROOT, 'dist')
  const files = readdirSync(dist, { recursive: true })
    .map(String)
    .filter(f => f.endsWith('.js') && statSync(path.join(dist, f)).isFile())
    .sort()
  const rows = files.map(file => {
    const data = readFileSync(path.join(dist, file))
    return { file: `dist/${file}`, bytes: data.length, gzip: gzipSync(data, { level: 9 }).length }
  })
  // What each entry loads before it runs (its static imports) and all it may load later.
  const entries = ENTRIES.map(({ out }) => {
    const file = path.join(dist, out)
    return {
      entry: `dist/${out}`,
      startBytes: size(loadedFiles(file)),
      allBytes: size(loadedFiles(file, { dynamic: true })),
      undici: undiciCopies(file)
    }
  })
  const main = entries.find(e => e.entry === 'dist/index.js')
  const goals = [
    goal(
      'dist/index.js, main entry: at start / with every lazy chunk',
      `${Math.round((main?.startBytes ?? 0) / 1000)} KB / ${Math.round((main?.allBytes ?? 0) / 1000)} KB`,
      '< 600 KB, even counting every lazy chunk',
      (main?.allBytes ?? Infinity) < 600_000
    ),
    goal(
      'undici copies an entry may load',
      entries.map(e => e.undici).join(', '),
      "at most 1 each (only the toolkit's, loaded behind a proxy)",
      entries.every(e => e.undici <= 1)
    )
  ]
  return { rows, entries, goals }
}

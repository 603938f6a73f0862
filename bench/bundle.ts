import { readFileSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { ENTRIES, undiciCopies } from '../scripts/entries.mjs'
import { ROOT } from './processes.js'
import { type Goal, goal } from './stats.js'

export interface BundleResult {
  rows: { file: string; bytes: number; gzip: number }[]
  entries: { entry: string; bytes: number; undici: number }[]
  goals: Goal[]
}

export function bundleBench(): BundleResult {
  const dist = path.join(ROOT, process.env.ACTION_DIST ?? 'dist')
  const files = readdirSync(dist, { recursive: true })
    .map(String)
    .filter(f => f.endsWith('.js') && statSync(path.join(dist, f)).isFile())
    .sort()
  const rows = files.map(file => {
    const data = readFileSync(path.join(dist, file))
    return { file: `dist/${file}`, bytes: data.length, gzip: gzipSync(data, { level: 9 }).length }
  })
  // Each entry is one file (scripts/bundle.mjs): all it loads at start; its chunks only when needed.
  const entries = ENTRIES.map(({ out }) => {
    const file = path.join(dist, out)
    return { entry: `dist/${out}`, bytes: statSync(file).size, undici: undiciCopies(file) }
  })
  // Size is measured, not a goal: one file per entry (and its rarely loaded chunks) is the point of ncc.
  const goals = [
    goal(
      'undici copies in an entry',
      entries.map(e => e.undici).join(', '),
      "exactly 1 each (the toolkit's)",
      entries.every(e => e.undici === 1)
    )
  ]
  return { rows, entries, goals }
}

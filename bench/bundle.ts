import { readFileSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { ENTRIES, undiciCopies } from '../scripts/entries.mjs'
import { ROOT } from './processes.js'
import { type Goal, goal } from './stats.js'

export interface BundleResult {
  rows: { file: string; bytes: number; gzip: number }[]
  undici: { entry: string; copies: number }[]
  goals: Goal[]
}

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
  const undici = ENTRIES.map(entry => {
    return {
      entry: path.join('dist', entry.out, 'index.js'),
      copies: undiciCopies(path.join(dist, entry.out))
    }
  })
  const main = rows.find(r => r.file === 'dist/index.js')
  const goals = [
    goal(
      'dist/index.js (main entry)',
      `${Math.round((main?.bytes ?? 0) / 1000)} KB`,
      '< 600 KB',
      (main?.bytes ?? Infinity) < 600_000
    ),
    goal(
      'undici copies per bundle',
      undici.map(u => u.copies).join(', '),
      'exactly 1 each',
      undici.every(u => u.copies === 1)
    )
  ]
  return { rows, undici, goals }
}

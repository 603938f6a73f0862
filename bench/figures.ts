import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { type Goal, goal } from './stats.js'

export type Value = number | string | boolean | null

/** A set of figures by key, with where and when they were measured. */
export interface FigureFile {
  node: string
  date: string
  /** What was measured: the commit, or a note. */
  source: string
  figures: Record<string, Value>
}

/** How a figure may move before it counts as a regression. */
export interface Watch {
  key: string
  name: string
  better: 'lower' | 'higher'
  /** Allowed slack: relative (0.1 = 10 %) and absolute, added together. */
  rel?: number
  abs?: number
}

export const readFigures = (file: string): FigureFile | undefined =>
  existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as FigureFile) : undefined

export const writeFigures = (file: string, data: FigureFile): void =>
  writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`)

/**
 * This run's figures, beside the figures before the change (`before`, shown in the tables) and the
 * last run that met every goal (`baseline`, which regressions are measured against).
 */
export class Figures {
  readonly now: Record<string, Value> = {}

  constructor(
    private readonly before: FigureFile | undefined,
    private readonly baseline: FigureFile | undefined
  ) {}

  /** Records a figure and gives it back, to be printed. */
  set<T extends Value>(key: string, value: T): T {
    this.now[key] = value
    return value
  }

  /** The figure before the change, as printed, or a dash when there was none. */
  was(key: string): string {
    const value = this.before?.figures[key]
    return value === undefined || value === null ? '—' : String(value)
  }

  /** One goal per watched figure: no worse than the baseline beyond its slack. */
  regressions(watches: readonly Watch[]): Goal[] {
    const base = this.baseline
    if (!base) return []
    const goals: Goal[] = []
    for (const w of watches) {
      const then = base.figures[w.key]
      const now = this.now[w.key]
      if (typeof then !== 'number' || typeof now !== 'number') continue
      const slack = Math.abs(then) * (w.rel ?? 0) + (w.abs ?? 0)
      const limit = w.better === 'lower' ? then + slack : then - slack
      const pass = w.better === 'lower' ? now <= limit : now >= limit
      goals.push(
        goal(
          `No regression: ${w.name}`,
          `${now} (${base.source}: ${then})`,
          `${w.better === 'lower' ? '≤' : '≥'} ${Math.round(limit * 100) / 100}`,
          pass
        )
      )
    }
    return goals
  }
}

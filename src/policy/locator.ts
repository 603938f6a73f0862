import type { Document, LineCounter, Node, Pair } from 'yaml'
import { type PolicyProblem, keyName } from './problems.js'

// Where in a policy file a problem is: the line and column of a key or a value found by its path
// (valibot's issue paths), and the key an offset is in (YAML's syntax errors).

/** A path of keys and list indexes: `['code-repositories', 1, 'paths', 0]`. */
export type Path = readonly (string | number)[]
export type Located = Omit<PolicyProblem, 'message'>

/** Where the problems of one file are found: its document, lines and text. */
export class Locator {
  constructor(
    readonly text: string,
    readonly doc: Document.Parsed,
    readonly lines: LineCounter
  ) {}

  at(offset: number, key?: string): Located {
    const { line, col } = this.lines.linePos(offset)
    return { line, column: col, ...(key ? { key } : {}) }
  }

  /** The node at a path of keys and indexes, and the pair holding it. */
  find(path: Path): { node?: Node | null; pair?: Pair } {
    let node: unknown = this.doc.contents
    let pair: Pair | undefined
    for (const step of path) {
      const items = (node as { items?: unknown[] } | null)?.items
      if (!Array.isArray(items)) return {}
      if (typeof step === 'number') {
        node = items[step]
        pair = undefined
      } else {
        pair = (items as Pair[]).find(p => (p.key as { value?: unknown })?.value === step)
        if (!pair) return {}
        node = pair.value
      }
    }
    return { node: node as Node | null, ...(pair ? { pair } : {}) }
  }

  /** The line of a value (or of its key, when it has no value), named by its path. */
  value(path: Path): Located {
    const { node, pair } = this.find(path)
    const offset = node?.range?.[0] ?? (pair?.key as Node | undefined)?.range?.[0] ?? 0
    return this.at(offset, pathName(path))
  }

  /** The line of a key itself: an unknown key, or a key another one depends on. */
  key(path: Path): Located {
    const { pair } = this.find(path)
    return this.at((pair?.key as Node | undefined)?.range?.[0] ?? 0, pathName(path))
  }

  /** The path of the innermost key or item holding an offset, for a syntax error's message. */
  pathAt(offset: number): Path {
    const path: (string | number)[] = []
    let node: unknown = this.doc.contents
    for (;;) {
      const items = (node as { items?: unknown[] } | null)?.items
      if (!Array.isArray(items)) return path
      const index = items.findIndex(item => {
        const range = (item as Pair).key !== undefined ? spanOf(item as Pair) : (item as Node).range
        return range && offset >= range[0] && offset <= range[1]
      })
      if (index < 0) return path
      const item = items[index] as Pair | Node
      if ('key' in item && item.key !== undefined) {
        path.push(String((item.key as { value?: unknown })?.value))
        node = item.value
      } else {
        path.push(index)
        node = item
      }
    }
  }
}

/** A pair's extent: from its key to the end of its value (not the line breaks after it). */
function spanOf(pair: Pair): [number, number] | undefined {
  const start = (pair.key as Node | null)?.range?.[0]
  const end = (pair.value as Node | null)?.range?.[1] ?? (pair.key as Node | null)?.range?.[1]
  return start === undefined || end === undefined ? undefined : [start, end]
}

/** `code-repositories[1].paths[0]`. */
export const pathName = (path: Path): string =>
  path
    .map((step, i) =>
      typeof step === 'number' ? `[${step}]` : i ? `.${keyName(step)}` : keyName(step)
    )
    .join('')

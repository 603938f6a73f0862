import { posix } from 'node:path'
import { type FileRead, textOf, whyNoText } from './repository.js'

/**
 * A Mintlify configuration with its `$ref`s followed, as Mintlify's settings page documents them: an
 * object `{ "$ref": "./config/navigation.json" }` anywhere in `docs.json` is replaced by that JSON
 * file; a referenced file's own refs are relative to it; an object's sibling keys are laid over the
 * referenced object (and dropped beside anything else); paths are relative and stay in the docs root;
 * a circle is an error. Pure: it works on the files read so far and names the ones it still needs.
 * Bounded in depth, files, bytes and nodes, and says where a bound or a bad file stopped it.
 */

/** Levels of files a chain of refs goes down at most below the configuration. */
export const MAX_REF_DEPTH = 5
/** Files a configuration's refs bring in at most. */
export const MAX_REF_FILES = 30
/** Text of the configuration and its refs together, at most. */
const MAX_CONFIG_BYTES = 10 * 1024 * 1024
/** Values walked at most: a hostile file cannot hold the run. */
const MAX_NODES = 1_000_000
/** Notes kept: the first few say what went wrong. */
const MAX_NOTES = 5

export interface ResolvedConfig {
  /** The configuration with its refs replaced; undefined when the file itself has no JSON. */
  value: unknown
  /** Files referred to and not read yet: read them, and resolve again. */
  pending: string[]
  /** What stopped a ref (a bound, a file that is no JSON, a path out of the root), said. */
  notes: string[]
  /** The files it is made of: the configuration, then every file a ref brought in. */
  files: string[]
  /** Why the configuration itself has no JSON object, when it has none. */
  unreadable?: string
}

/** A repository path for `ref` as the file `holder` writes it, inside `root`, or why not. */
function refPath(ref: string, holder: string, root: string): string | { why: string } {
  const text = ref.trim()
  if (!text || /^[a-z][a-z0-9+.-]*:/i.test(text) || text.startsWith('/') || text.includes('\\'))
    return { why: 'it is not a relative path' }
  const path = posix.normalize(posix.join(posix.dirname(holder), text))
  const inside = root ? path.startsWith(`${root}/`) : !path.startsWith('../') && path !== '..'
  return inside ? path : { why: 'it leads out of the docs root' }
}

/** A path in a note (plain text: whoever shows it escapes it), cut when long. */
const shown = (path: string): string => (path.length > 120 ? `${path.slice(0, 120)}…` : path)

/**
 * `file` (the configuration, a repository path) with its refs followed, from the files in `reads`
 * (by repository path); `root` the docs root no ref may leave.
 */
export function resolveConfig(
  file: string,
  root: string,
  reads: ReadonlyMap<string, FileRead>
): ResolvedConfig {
  const out: ResolvedConfig = { value: undefined, pending: [], notes: [], files: [] }
  const parsed = new Map<string, { value: unknown } | undefined>()
  let bytes = 0
  let nodes = 0
  const note = (text: string): void => {
    if (out.notes.includes(text)) return
    if (out.notes.length < MAX_NOTES) out.notes.push(text)
    else if (out.notes.length === MAX_NOTES) out.notes.push('Other refs were not followed either.')
  }
  /** A file's JSON, once; undefined (said, or pending) when there is none yet. */
  const load = (path: string, from: string): { value: unknown } | undefined => {
    if (parsed.has(path)) return parsed.get(path)
    const read = reads.get(path)
    if (read === undefined) {
      if (!out.pending.includes(path)) out.pending.push(path)
      return undefined
    }
    const text = textOf(read)
    let loaded: { value: unknown } | undefined
    if (text === undefined) {
      if (path === file) out.unreadable = `${shown(path)} is ${whyNoText(read)}`
      else
        note(`${from}'s $ref to ${shown(path)} was not followed: the file is ${whyNoText(read)}.`)
    } else if ((bytes += text.length) > MAX_CONFIG_BYTES) {
      note(
        `${from}'s $ref to ${shown(path)} was not followed: the configuration and its refs are over ${MAX_CONFIG_BYTES / 1024 / 1024} MB.`
      )
    } else {
      try {
        loaded = { value: JSON.parse(text) as unknown }
        out.files.push(path)
      } catch {
        if (path === file) out.unreadable = `${shown(path)} is no JSON`
        else note(`${from}'s $ref to ${shown(path)} was not followed: the file is no JSON.`)
      }
    }
    parsed.set(path, loaded)
    return loaded
  }
  const walk = (node: unknown, holder: string, chain: readonly string[]): unknown => {
    if (++nodes > MAX_NODES) {
      note(
        `${shown(file)} and its refs hold more than ${MAX_NODES.toLocaleString('en-US')} values: the rest was not read.`
      )
      return undefined
    }
    if (Array.isArray(node)) return node.map(v => walk(v, holder, chain))
    if (!node || typeof node !== 'object') return node
    const element = node as Record<string, unknown>
    // Built with fromEntries: a `__proto__` key stays a key, never the object's prototype.
    const siblings = Object.fromEntries(
      Object.entries(element)
        .filter(([key]) => key !== '$ref')
        .map(([key, value]) => [key, walk(value, holder, chain)])
    )
    if (typeof element.$ref !== 'string') return siblings
    const from = shown(holder)
    const target = refPath(element.$ref, holder, root)
    if (typeof target !== 'string') {
      note(`${from}'s $ref to ${shown(element.$ref)} was not followed: ${target.why}.`)
      return siblings
    }
    if (chain.includes(target)) {
      note(`${from}'s $ref to ${shown(target)} was not followed: the refs go round in a circle.`)
      return siblings
    }
    if (chain.length > MAX_REF_DEPTH) {
      note(
        `${from}'s $ref to ${shown(target)} was not followed: refs go ${MAX_REF_DEPTH} files deep at most.`
      )
      return siblings
    }
    if (!parsed.has(target) && parsed.size > MAX_REF_FILES) {
      note(
        `${from}'s $ref to ${shown(target)} was not followed: ${MAX_REF_FILES} files are followed at most.`
      )
      return siblings
    }
    const loaded = load(target, from)
    if (!loaded) return siblings
    const value = walk(loaded.value, target, [...chain, target])
    // Sibling keys are laid over an object; beside anything else they are dropped.
    return value && typeof value === 'object' && !Array.isArray(value)
      ? { ...(value as Record<string, unknown>), ...siblings }
      : value
  }
  const top = load(file, shown(file))
  if (top) out.value = walk(top.value, file, [file])
  return out
}

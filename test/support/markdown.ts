import { readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { parse } from 'yaml'
import { ROOT } from './run-action.js'

/** Folders that hold no documentation of ours: installed packages, builds, scratch space. */
const SKIP = new Set(['node_modules', '.git', 'dist', 'build', 'coverage', '.tmp'])

/** Every Markdown file of the repository, relative to it, sorted. */
export function markdownFiles(dir = ''): string[] {
  const files: string[] = []
  for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const relative = dir ? `${dir}/${entry.name}` : entry.name
    if (entry.isDirectory()) {
      if (!SKIP.has(entry.name)) files.push(...markdownFiles(relative))
    } else if (/\.md$/i.test(entry.name)) files.push(relative)
  }
  return files.sort()
}

/** A ```yaml block of a Markdown file: where it starts, its text, and what it is. */
export interface YamlBlock {
  /** `file:line` of the block's first line of YAML. */
  name: string
  file: string
  /** 1-based line, in the Markdown file, of the block's first line of YAML. */
  line: number
  text: string
  /**
   * A block with `on:` or `jobs:` is a whole workflow; a list is steps of a job; any other mapping (a
   * `with:` or `permissions:` snippet, a dependabot.yml) is a fragment.
   */
  kind: 'workflow' | 'steps' | 'fragment'
}

export function yamlBlocks(file: string, markdown = readFileSync(path.join(ROOT, file), 'utf8')) {
  const lines = markdown.split('\n')
  const blocks: YamlBlock[] = []
  for (let i = 0; i < lines.length; i++) {
    if (!/^```ya?ml\s*$/.test(lines[i] as string)) continue
    const line = i + 2
    const body: string[] = []
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i] as string); i++)
      body.push(lines[i] as string)
    const text = `${body.join('\n')}\n`
    let value: unknown
    try {
      value = parse(text)
    } catch {
      // Reported by the test that every block parses.
    }
    const kind = Array.isArray(value)
      ? 'steps'
      : value && typeof value === 'object' && ('jobs' in value || 'on' in value)
        ? 'workflow'
        : 'fragment'
    blocks.push({ name: `${file}:${line}`, file, line, text, kind })
  }
  return blocks
}

/** The Markdown without its fenced code blocks, line count kept: headings and links outside code. */
export function withoutCode(markdown: string): string {
  let inFence = false
  return markdown
    .split('\n')
    .map(line => {
      if (/^\s*```/.test(line)) {
        inFence = !inFence
        return ''
      }
      return inFence ? '' : line
    })
    .join('\n')
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>()
  const result = new Set<string>()
  for (const [, heading] of withoutCode(markdown).matchAll(/^#{1,6} +(.+?)\s*#*\s*$/gm)) {
    const slug = (heading as string)
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-')
    const count = seen.get(slug) ?? 0
    seen.set(slug, count + 1)
    result.add(count ? `${slug}-${count}` : slug)
  }
  return result
}

/** A link or image target in Markdown outside code: `[text](target)` or `![alt](target "title")`. */
export interface Link {
  target: string
  line: number
}

export function links(markdown: string): Link[] {
  const found: Link[] = []
  withoutCode(markdown)
    .split('\n')
    .forEach((text, i) => {
      for (const [, target] of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
        found.push({ target: target as string, line: i + 1 })
    })
  return found
}

/** Links to this repository's files (or headings), not to the web. */
export const isRelative = (target: string): boolean => !/^[a-z][a-z0-9+.-]*:/i.test(target)

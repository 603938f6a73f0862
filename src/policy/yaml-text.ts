/**
 * YAML written for people to paste into the policy file: the migration's equivalent of v1's inputs
 * and the examples in the policy's error messages. Written by hand, not by the `yaml` package, so
 * that a run refusing moved inputs loads no YAML parser. Each scalar reads back as the same value:
 * plain when nothing in it means something to YAML, double-quoted otherwise (JSON's escapes are
 * YAML's), so `!src/**` (a tag) and `*.md` (an alias) come out quoted.
 */

/** A value the policy file holds: scalars, lists and mappings of them. */
export type YamlValue = string | number | boolean | readonly YamlValue[] | YamlMapping
export interface YamlMapping {
  readonly [key: string]: YamlValue | undefined
}

/** Plain scalars YAML's core schema reads as something else than the string (YAML 1.1's too). */
const NOT_A_STRING =
  /^(?:~|null|true|false|yes|no|on|off|y|n|[-+]?(?:\.\d+|\d[\d_]*(?:\.\d*)?)(?:e[-+]?\d+)?|0o[0-7]+|0x[\da-f]+|[-+]?\.inf|\.nan)$/i

/** Printable ASCII that may start a plain scalar: no indicator (`-?:,[]{}#&*!|>'"%@`), no space. */
const PLAIN_START = /^[A-Za-z0-9_./~$^()+=<;\\]/
const PLAIN_REST = /^[\x20-\x7e]*$/

function isPlain(text: string, flow: boolean): boolean {
  return (
    PLAIN_START.test(text) &&
    PLAIN_REST.test(text) &&
    !/["']/.test(text) &&
    !text.includes(': ') &&
    !text.includes(' #') &&
    !/[:\s]$/.test(text) &&
    !(flow && /[,[\]{}]/.test(text)) &&
    !NOT_A_STRING.test(text)
  )
}

/** One scalar on one line; `flow` inside `[…]` or `{…}`, where `,` and brackets end a plain one. */
export function yamlScalar(value: string | number | boolean, flow = false): string {
  if (typeof value !== 'string') return String(value)
  return isPlain(value, flow) ? value : JSON.stringify(value)
}

const isList = (value: YamlValue): value is readonly YamlValue[] => Array.isArray(value)
const isMapping = (value: YamlValue): value is YamlMapping =>
  typeof value === 'object' && !Array.isArray(value)
const entries = (mapping: YamlMapping): [string, YamlValue][] =>
  Object.entries(mapping).filter((e): e is [string, YamlValue] => e[1] !== undefined)

/** A value on one line: `[docs, "!x.md"]`, `{repository: acme/api}`. */
export function yamlFlow(value: YamlValue): string {
  if (isList(value)) return `[${value.map(yamlFlow).join(', ')}]`
  if (isMapping(value))
    return `{${entries(value)
      .map(([k, v]) => `${yamlScalar(k, true)}: ${yamlFlow(v)}`)
      .join(', ')}}`
  return yamlScalar(value, true)
}

/** Text of several lines as a literal block (`|-`), when it reads back the same; else undefined. */
function literalBlock(text: string, indent: string): string | undefined {
  if (
    !text.includes('\n') ||
    text !== text.trim() ||
    /[^\n\t\x20-\x7e\u00a0-\ud7ff\ue000-\ufffd]/.test(text)
  )
    return undefined
  return ['|-', ...text.split('\n').map(line => (line ? indent + line : ''))].join('\n')
}

/** `key: value` in block style, lists a line an item, indented by `indent`. */
export function yamlEntry(key: string, value: YamlValue, indent = ''): string {
  const head = `${indent}${yamlScalar(key)}:`
  const inner = `${indent}  `
  if (isList(value)) {
    if (!value.length) return `${head} []`
    return [head, ...value.map(item => yamlItem(item, inner))].join('\n')
  }
  if (isMapping(value)) {
    const pairs = entries(value)
    if (!pairs.length) return `${head} {}`
    return [head, ...pairs.map(([k, v]) => yamlEntry(k, v, inner))].join('\n')
  }
  const block = typeof value === 'string' ? literalBlock(value, inner) : undefined
  return `${head} ${block ?? yamlScalar(value)}`
}

/** `- item` of a block list; a mapping's first key on the dash's line, the others under it. */
function yamlItem(item: YamlValue, indent: string): string {
  if (isMapping(item) && entries(item).length) {
    const text = entries(item)
      .map(([k, v]) => yamlEntry(k, v, `${indent}  `))
      .join('\n')
    return `${indent}- ${text.slice(indent.length + 2)}`
  }
  if (typeof item === 'object') return `${indent}- ${yamlFlow(item)}`
  const block = typeof item === 'string' ? literalBlock(item, `${indent}  `) : undefined
  return `${indent}- ${block ?? yamlScalar(item)}`
}

/** A mapping as the lines of a YAML document, one key after the other. */
export function yamlDocument(mapping: YamlMapping): string {
  return entries(mapping)
    .map(([k, v]) => yamlEntry(k, v))
    .join('\n')
}

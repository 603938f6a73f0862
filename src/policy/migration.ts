import {
  ACTION_USES,
  type AgentAction,
  MOVED_TO_POLICY,
  NEW_POLICY_KEYS,
  REMOVED_INPUT,
  REMOVED_WHY,
  actionsOf
} from './actions.js'
import { DEFAULT_POLICY_PATH, POLICY_SCHEMA_URL } from './load.js'
import { v1CodeRepositories, v1List } from './v1-lists.js'
import { type YamlMapping, type YamlValue, yamlDocument } from './yaml-text.js'

/**
 * From v1 to v2: an input a workflow still gives an agent action that is not that action's own is
 * refused before any request, naming its new place: a key of the policy file, another action's
 * input, or nothing (`changes`). The message carries the YAML that says in the policy file what
 * the inputs said, to paste.
 */

type MovedKey = (typeof MOVED_TO_POLICY)[number] | (typeof NEW_POLICY_KEYS)[number]

/** Every key of the policy file, in the file's order of the migration's YAML. */
const POLICY_FILE_KEYS: readonly MovedKey[] = [...NEW_POLICY_KEYS, ...MOVED_TO_POLICY]

/** v1 read these as lists: one item a line or a comma. */
const LISTS = new Set<string>(['allowed-bots', 'paths', 'paths-ignore'])
const BOOLEANS = new Set<string>(['include-diff', 'dashboard'])
const NUMBERS = new Set<string>(['max-open', 'max-credits', 'credits-per-run', 'version'])
/** v1 read these in any case, with spaces around. */
const WORDS = new Set<string>([
  'since',
  'required-permission',
  'fold',
  'approval',
  'reviewers',
  'expire-after'
])

/** A v1 input's value as the policy file writes it; undefined when v1 read it as unset. */
function policyValue(name: MovedKey | 'instructions', raw: string): YamlValue | undefined {
  const text = raw.trim()
  if (!text) return undefined
  if (LISTS.has(name)) {
    const list = v1List(raw)
    return list.length ? list : undefined
  }
  if (name === 'code-repositories') {
    const list = v1CodeRepositories(raw).map(({ name: repository, paths }) =>
      paths?.length ? { repository, paths } : repository
    )
    return list.length ? list : undefined
  }
  if (BOOLEANS.has(name)) {
    const word = text.toLowerCase()
    return word === 'true' ? true : word === 'false' ? false : text
  }
  if (NUMBERS.has(name)) return /^\d{1,7}$/.test(text) ? Number(text) : text
  if (name === 'max-jobs')
    return text
      .toLowerCase()
      .replace(/\s+/g, '')
      .replace(/^0+(?=\d)/, '')
  if (name === 'dashboard-title') return text.replace(/\s+/g, ' ')
  if (WORDS.has(name)) return text.toLowerCase()
  return text
}

/** A change run's `prompt` was a standing instruction: the policy file's `instructions` now. */
const movesToInstructions = (action: AgentAction, input: string): boolean =>
  action === 'changes' && input === 'prompt'

const isMoved = (input: string): input is MovedKey =>
  (POLICY_FILE_KEYS as readonly string[]).includes(input)

/**
 * What a workflow's moved inputs said, as policy file values (`policyYaml` writes them): each
 * moved input with a value, lists as lists, v1's `code-repositories` lines as its list form.
 */
export function policyFromInputs(
  action: AgentAction,
  given: Readonly<Record<string, string>>
): YamlMapping {
  const values: Record<string, YamlValue> = {}
  for (const key of POLICY_FILE_KEYS) {
    const raw = given[key]
    const value = raw === undefined ? undefined : policyValue(key, raw)
    if (value !== undefined) values[key] = value
  }
  const prompt = given.prompt
  if (prompt !== undefined && movesToInstructions(action, 'prompt')) {
    const value = policyValue('instructions', prompt)
    if (value !== undefined) values.instructions = value
  }
  return values
}

/** The policy file's text for these values, with the line that lets editors check it. */
export const policyYaml = (values: YamlMapping): string =>
  [`# yaml-language-server: $schema=${POLICY_SCHEMA_URL}`, yamlDocument(values)].join('\n')

/** Where one input that is not this action's lives now, in words. */
function newPlace(action: AgentAction, input: string, file: string): string {
  if (isMoved(input)) return `a key of the policy file ${file} now (${input}: …)`
  if (movesToInstructions(action, input))
    return `'instructions' in the policy file ${file} now: a standing instruction sent before every request`
  if (input === REMOVED_INPUT) return `gone: ${REMOVED_WHY}`
  const owners = actionsOf(input).map(a => `${ACTION_USES[a].uses} (${ACTION_USES[a].what})`)
  const place = `an input of ${owners.join(' and of ')}`
  return action === 'changes' && input === 'prompt-file'
    ? `${place}; for a standing instruction in change runs, write the file's text under 'instructions' in ${file}`
    : place
}

/**
 * Refuses, before any request, the inputs a workflow gives `action` that are not its own: v1
 * inputs that moved to the policy file, another agent action's inputs, and v1's `changes`. Returns
 * one message naming each with its new place, followed by the YAML to paste into the policy file
 * (at `file`, the `config` input's path) for those that moved there; undefined when every input is
 * this action's own, or is no agent action's (the runner warns of those).
 *
 * `given` holds the inputs as the runner passes them (`INPUT_MAX-JOBS` → `max-jobs`), values as
 * written.
 */
export function movedInputs(
  action: AgentAction,
  given: Readonly<Record<string, string>>,
  file = DEFAULT_POLICY_PATH
): string | undefined {
  const own = (input: string): boolean =>
    actionsOf(input).includes(action) && !movesToInstructions(action, input)
  const misplaced = Object.keys(given).filter(
    input =>
      !own(input) && (isMoved(input) || input === REMOVED_INPUT || actionsOf(input).length > 0)
  )
  if (!misplaced.length) return undefined
  const rank = (input: string): number => {
    const moved = (POLICY_FILE_KEYS as readonly string[]).indexOf(input)
    return moved >= 0 ? moved : movesToInstructions(action, input) ? POLICY_FILE_KEYS.length : 99
  }
  misplaced.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
  const lines = [
    `${ACTION_USES[action].uses} was given inputs that are not its own in v2:`,
    ...misplaced.map(input => `- '${input}': ${newPlace(action, input, file)}.`)
  ]
  const values = policyFromInputs(action, given)
  if (Object.keys(values).length)
    lines.push(
      '',
      `Remove them from the step's 'with:', and write this in ${file} on the default branch (it says what the inputs said):`,
      '',
      policyYaml(values)
    )
  else lines.push('', `Remove them from the step's 'with:'.`)
  return lines.join('\n')
}

import {
  ACTION_USES,
  AGENT_ACTIONS,
  CONFIG_INPUT,
  REMOVED_INPUT,
  REMOVED_WHY,
  actionsOf
} from './actions.js'
import { keyName } from './problems.js'
import { POLICY_KEYS, type PolicyKey, keyInfo } from './schema.js'
import { type YamlValue, yamlFlow } from './yaml-text.js'

// The words of the messages about the file's keys: the example of a right value, the key someone
// meant. Apart from problems.ts so that a run with no policy file loads no schema.

/** `max-jobs: 20/month`: a right value of a key, for its messages. */
export const exampleOf = (key: PolicyKey): string =>
  `${key}: ${yamlFlow(keyInfo(key).example as YamlValue)}`

/** Edits between two words, for the key someone meant. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    const next = [i]
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(
        (row[j] as number) + 1,
        (next[j - 1] as number) + 1,
        (row[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1)
      )
    row = next
  }
  return row[b.length] as number
}

/** The known word closest to `word`, when it is close enough to be what was meant. */
export function closest(word: string, known: readonly string[]): string | undefined {
  const lower = word.toLowerCase().replace(/_/g, '-')
  let best: { word: string; edits: number } | undefined
  for (const candidate of known) {
    const edits = distance(lower, candidate)
    if (!best || edits < best.edits) best = { word: candidate, edits }
  }
  return best && best.edits <= Math.max(2, Math.floor(word.length / 4)) ? best.word : undefined
}

/** Why a key the file writes at its top is not one of the policy's; its value is never shown. */
export function unknownKeyMessage(key: string): string {
  const name = keyName(key)
  if (key === CONFIG_INPUT)
    return `'${CONFIG_INPUT}' is the input that names this file, not a key in it: remove the line.`
  if (key === REMOVED_INPUT)
    return `'${REMOVED_INPUT}' is gone in v2: ${REMOVED_WHY}. Remove the line.`
  if (key === 'prompt')
    return `'prompt' is not a key of the policy file: a standing instruction sent before every request is 'instructions' (such as instructions: Write in the second person.); the prompt of one run stays an input of ${ACTION_USES.main.uses}.`
  const actions = actionsOf(key)
  if (actions.length)
    return `'${name}' is an input of the workflow's step (${actions.length === AGENT_ACTIONS.length ? 'every agent action has it' : actions.map(a => ACTION_USES[a].uses).join(', ')}), not a key of the policy file: keep it under 'with:' there${/token|key/.test(key) ? ', from a secret' : ''}, and remove it here.`
  const meant = closest(key, POLICY_KEYS)
  return meant
    ? `'${name}' is not a key of the policy file; did you mean '${meant}'? (such as ${exampleOf(meant as PolicyKey)})`
    : `'${name}' is not a key of the policy file; the keys are ${POLICY_KEYS.join(', ')}.`
}

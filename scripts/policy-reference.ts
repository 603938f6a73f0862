// The table of the policy file's keys in docs/reference.md, between <!-- policy: keys --> and
// <!-- end -->: each key's form, default, each preset's value and description, from
// src/policy/schema.ts and src/policy/presets.ts. `npm run schema` writes it with the JSON Schema
// (scripts/policy-schema.ts); test/unit/policy-schema.test.ts fails when it is stale.
import { PRESET_NAMES } from '../src/policy/choices.js'
import { DEFAULTS, PRESETS } from '../src/policy/presets.js'
import { POLICY_KEYS, type PolicyKey, keyInfo } from '../src/policy/schema.js'
import { type YamlValue, yamlFlow } from '../src/policy/yaml-text.js'

const cell = (text: string): string => text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim()
const code = (value: unknown): string => cell(`\`${yamlFlow(value as YamlValue)}\``)

/** A key's value in a preset's column: its own, or `—` when the preset leaves the default. */
const presetValue = (preset: (typeof PRESET_NAMES)[number], key: PolicyKey): string => {
  const value = PRESETS[preset][key]
  return value === undefined ? '—' : code(value)
}

const defaultValue = (key: PolicyKey): string => {
  const value = (DEFAULTS as Partial<Record<PolicyKey, unknown>>)[key]
  return value === undefined ? 'unset' : code(value)
}

/** Every key of the policy file, a row each, in the schema's order. */
export function policyTable(): string {
  const rows = POLICY_KEYS.map(key => {
    const { form, description } = keyInfo(key)
    return `| \`${key}\` | ${cell(form)} | ${defaultValue(key)} | ${PRESET_NAMES.map(p => presetValue(p, key)).join(' | ')} | ${cell(description)} |`
  })
  return [
    `| key | form | default | ${PRESET_NAMES.join(' | ')} | description |`,
    `|---|---|---|${PRESET_NAMES.map(() => '---|').join('')}---|`,
    ...rows
  ].join('\n')
}

const MARKER = /(<!-- policy: keys -->)\n[\s\S]*?<!-- end -->/g

/** The page with a fresh table of the policy file's keys between its markers. */
export const renderPolicyTable = (text: string): string =>
  text.replace(MARKER, (_all, open: string) => `${open}\n\n${policyTable()}\n\n<!-- end -->`)

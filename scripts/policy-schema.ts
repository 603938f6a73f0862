// Writes schema/docs-agent.schema.json, the policy file's JSON Schema that editors read (a file's
// `# yaml-language-server: $schema=…` line), and the table of its keys in docs/reference.md
// (scripts/policy-reference.ts), both from src/policy/schema.ts and presets.ts. `--write` writes
// them (`npm run schema`); without it, exits 1 when either is stale.
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { type JsonSchema, toJsonSchema } from '@valibot/to-json-schema'
import { POLICY_SCHEMA_URL } from '../src/policy/load.js'
import { DEFAULTS } from '../src/policy/presets.js'
import { POLICY_SCHEMA } from '../src/policy/schema.js'
import { renderPolicyTable } from './policy-reference.js'
import { REFERENCE, unpadTables } from './reference-tables.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
/** The schema's file, relative to the repository: POLICY_SCHEMA_URL serves it from the v2 tag. */
export const SCHEMA_FILE = 'schema/docs-agent.schema.json'

/**
 * The JSON Schema of the policy file (draft-07, which editors know best): the valibot schema's
 * types, limits, titles, descriptions and examples, with the defaults. What JSON Schema cannot say
 * is the action's to check: that a glob is one picomatch reads, a duration's range, and the rules
 * across keys and presets.
 */
export function policyJsonSchema(): JsonSchema {
  const schema = toJsonSchema(POLICY_SCHEMA, { target: 'draft-07', ignoreActions: ['check'] })
  const properties = schema.properties as Record<string, JsonSchema>
  for (const [key, value] of Object.entries(DEFAULTS))
    (properties[key] as JsonSchema).default = value
  const { $schema, ...rest } = schema
  return { $schema, $id: POLICY_SCHEMA_URL, ...rest }
}

/**
 * A text formatted as `npm run format` formats the file it is written to. Prettier is loaded here
 * only: the tests compare what the files say, not their layout (lint checks that), and loading and
 * running it cost them a second and a half of CPU.
 */
async function formatted(text: string, file: string): Promise<string> {
  const { format, resolveConfig } = await import('prettier')
  const filepath = path.join(ROOT, file)
  return format(text, { ...(await resolveConfig(filepath)), filepath })
}

/** The schema file's text. */
export const schemaFileText = (): Promise<string> =>
  formatted(JSON.stringify(policyJsonSchema()), SCHEMA_FILE)

/** docs/reference.md with a fresh table of the policy file's keys. */
export const referenceText = (current: string): Promise<string> =>
  formatted(renderPolicyTable(current), REFERENCE)

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const schemaFile = path.join(ROOT, SCHEMA_FILE)
  const referenceFile = path.join(ROOT, REFERENCE)
  const reference = readFileSync(referenceFile, 'utf8')
  const [schema, table] = [await schemaFileText(), await referenceText(reference)]
  if (process.argv.includes('--write')) {
    writeFileSync(schemaFile, schema)
    writeFileSync(referenceFile, table)
  } else {
    const stale = [
      ...(readFileSync(schemaFile, 'utf8') !== schema ? [SCHEMA_FILE] : []),
      ...(unpadTables(table) !== unpadTables(reference) ? [REFERENCE] : [])
    ]
    if (stale.length) {
      console.error(`${stale.join(' and ')}: stale: run 'npm run schema'.`)
      process.exit(1)
    }
  }
}

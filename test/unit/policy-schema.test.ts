import { readFileSync, readdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { SCHEMA_FILE, policyJsonSchema } from '../../scripts/policy-schema.js'
import { policyTable, renderPolicyTable } from '../../scripts/policy-reference.js'
import { REFERENCE, unpadTables } from '../../scripts/reference-tables.js'
import { POLICY_SCHEMA_URL } from '../../src/policy/load.js'
import { PolicyError } from '../../src/policy/problems.js'
import { readPolicy } from '../../src/policy/read.js'
import { POLICY_KEYS } from '../../src/policy/schema.js'
import { markdownFiles, yamlBlocks } from '../support/markdown.js'
import { ROOT } from '../support/run-action.js'

const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8')
const EXAMPLE = 'examples/docs-agent.yml'

/**
 * Ajv 8, as ajv-formats (a dev dependency) brings it: the top-level `ajv` is ESLint's Ajv 6. Typed
 * here by what the test uses.
 */
interface Validator {
  (data: unknown): boolean
  errors?: { instancePath: string; message?: string }[] | null
}
const Ajv = createRequire(createRequire(import.meta.url).resolve('ajv-formats'))('ajv') as {
  default: new (options: { strict: boolean; allErrors: boolean }) => {
    compile(schema: unknown): Validator
  }
}
const validate = new Ajv.default({ strict: true, allErrors: true }).compile(
  JSON.parse(read(SCHEMA_FILE))
)

/** What each schema says of a file's text: the JSON Schema of editors, and the action's. */
async function judged(text: string): Promise<{ json: boolean; action: boolean }> {
  const json = validate(parse(text) ?? {})
  const action = await readPolicy(text, 'sample.yml').then(
    () => true,
    (e: unknown) => {
      expect(e).toBeInstanceOf(PolicyError)
      return false
    }
  )
  return { json, action }
}

describe('the JSON Schema of the policy file', () => {
  // What the file says; its layout is prettier's, which lint checks.
  it('is what npm run schema writes', () => {
    expect(JSON.parse(read(SCHEMA_FILE)), `${SCHEMA_FILE} is stale: run 'npm run schema'`).toEqual(
      policyJsonSchema()
    )
  })

  it('describes every key, with its default, and is reached at the URL files name', () => {
    const schema = policyJsonSchema() as {
      $id: string
      additionalProperties: boolean
      properties: Record<string, { title?: string; description?: string; default?: unknown }>
    }
    expect(schema.$id).toBe(POLICY_SCHEMA_URL)
    expect(POLICY_SCHEMA_URL).toMatch(new RegExp(`/v2/${SCHEMA_FILE}$`))
    expect(schema.additionalProperties).toBe(false)
    expect(Object.keys(schema.properties)).toEqual(POLICY_KEYS)
    for (const [key, property] of Object.entries(schema.properties)) {
      expect(property.title, key).toBeTruthy()
      expect(property.description?.length, key).toBeGreaterThan(30)
    }
    expect(schema.properties['skip-label']?.default).toBe('no-docs')
    expect(schema.properties.since?.title).toBe('duration, 1h–90d (30d)')
    expect(schema.properties.since).not.toHaveProperty('default')
    // Inputs of the workflows, beside their if: conditions: never keys of the file.
    expect(schema.properties).not.toHaveProperty('label')
    expect(schema.properties).not.toHaveProperty('trigger-phrase')
    expect(schema.properties['credits-per-run']?.default).toBe(180)
    expect(schema.properties['max-jobs']).not.toHaveProperty('default')
  })
})

describe('the example policy file and samples, judged by both schemas alike', () => {
  it('has an example a team starts from, valid in both, pointing editors at the schema', async () => {
    const text = read(EXAMPLE)
    expect(text.split('\n')[0]).toBe(`# yaml-language-server: $schema=${POLICY_SCHEMA_URL}`)
    expect(await judged(text)).toEqual({ json: true, action: true })
    expect(await readPolicy(text, EXAMPLE)).toMatchObject({
      preset: 'cautious',
      approval: 'dashboard',
      maxOpen: 1,
      maxJobs: { text: '20/month' }
    })
    // Every key of the file is in the example, written or commented out.
    for (const key of POLICY_KEYS) expect(text, key).toMatch(new RegExp(`^(# )?${key}:`, 'm'))
  })

  it('has a docs project’s example, valid in both, with its one list of repositories', async () => {
    const file = 'examples/docs-agent-project.yml'
    const text = read(file)
    expect(text.split('\n')[0]).toBe(`# yaml-language-server: $schema=${POLICY_SCHEMA_URL}`)
    expect(await judged(text)).toEqual({ json: true, action: true })
    const policy = await readPolicy(text, file, { repository: 'acme/docs' })
    expect(policy.codeRepositories?.map(r => r.name)).toEqual(['acme/api', 'acme/cli', 'acme/web'])
  })

  const valid = [
    '',
    'extends: autopilot\n',
    'paths: ["src/{api,cli}/**", "!**/*.test.ts"]\npaths-ignore: ["**/*.snap"]\n',
    'paths:\n  - src/{api,cli}/**\n  - "!**/*.test.ts"\n',
    'allowed-bots: [renovate, "dependabot[bot]"]\nrequired-permission: none\n',
    'code-repositories:\n  - acme/api\n  - {repository: acme/cli, paths: [cmd/**], paths-ignore: [x/**]}\n',
    'max-jobs: 2000/week\nmax-credits: 1000000\ncredits-per-run: 500\nmax-open: 100\n',
    'expire-after: 1h30m\nkeep-label: keep me\nreviewers: authors\n',
    'instructions: "Be brief."\ndocs-root: site/docs/\ndashboard-title: Docs to do\n',
    'skip-label: "x y"\ninclude-diff: true\nfold: never\n',
    'code-repositories: [acme/api]\nsince: 30d\n',
    'code-repositories: [acme/api]\nsince: 1h\n',
    'code-repositories: [acme/api]\nsince: 90d\n'
  ]
  const invalid = [
    'version: 2\n',
    'extends: reckless\n',
    'colour: blue\n',
    'api-key: x\n',
    'label: docs-agent\n',
    'trigger-phrase: /docs-agent\n',
    'skip-label: ""\n',
    `keep-label: ${'x'.repeat(51)}\n`,
    'skip-label: " no-docs"\n',
    'required-permission: owner\n',
    'allowed-bots: renovate\n',
    'allowed-bots: ["renovate bot"]\n',
    'instructions: "   "\n',
    `instructions: ${'a '.repeat(4097)}\n`,
    'paths: src/**\n',
    'paths: [""]\n',
    'include-diff: "true"\n',
    'fold: always\n',
    'code-repositories: [acme]\n',
    'code-repositories: [{repository: acme/api, branch: main}]\n',
    'code-repositories: [acme/..]\n',
    'since: 30\n',
    'since: 30 days\n',
    `code-repositories: [${Array.from({ length: 51 }, (_, i) => `acme/r${i}`).join(', ')}]\n`,
    'dashboard: 1\n',
    'dashboard-title: "a\\nb"\n',
    'approval: always\n',
    'max-jobs: 5/year\n',
    'max-jobs: 0/day\n',
    'max-jobs: 10000/day\n',
    'max-jobs: 2001/day\n', // more starts than the ledger keeps
    'max-credits: 0\n',
    'credits-per-run: 10001\n',
    'max-open: 1.5\n',
    'expire-after: 14\n',
    'expire-after: 2 weeks\n',
    'reviewers: everyone\n',
    'docs-root: /docs\n',
    'docs-root: docs/../secrets\n',
    '- a list\n'
  ]

  it.each(valid)('both accept %j', async text => {
    expect(await judged(text)).toEqual({ json: true, action: true })
  })

  it.each(invalid)('both refuse %j', async text => {
    expect(await judged(text)).toEqual({ json: false, action: false })
  })

  // What JSON Schema cannot say: editors accept these, the action names them with their line.
  const actionOnly = [
    'paths: ["src/[abc"]\n', // picomatch reads no glob
    'expire-after: 30m\n', // a duration out of range
    'since: 0h\n',
    'since: 91d\n',
    'extends: cautious\ndashboard: false\n', // a rule across keys and a preset
    'extends: standard\ndashboard: false\n', // a budget only the dashboard's ledger holds
    'max-credits: 100\n', // less than one run's credits-per-run
    'max-credits: 1000000\ncredits-per-run: 1\n',
    'quiet-hours: {from: "07:00", to: "07:00"}\n', // a window never quiet
    'quiet-hours: {days: [sunday, sunday]}\n',
    'dashboard: false\nexpire-after: 14d\n',
    'code-repositories: [acme/api, ACME/API]\n' // a repository twice, in another case
  ]

  it.each(actionOnly)('editors accept %j, the action refuses it', async text => {
    expect(await judged(text)).toEqual({ json: true, action: false })
  })
})

/**
 * The policy a workflow example shows in its header: each run of comment lines indented under the
 * `#` by three spaces (`#   max-jobs: 20/month`) before the first line that is not a comment.
 */
function headerPolicies(workflow: string): string[] {
  const header = workflow
    .split('\n')
    .filter((_, i, all) => all.slice(0, i + 1).every(l => l.startsWith('#')))
  const policies: string[] = []
  let run: string[] = []
  for (const line of [...header, '']) {
    if (line.startsWith('#   ')) run.push(line.slice(4))
    else if (run.length) {
      policies.push(`${run.join('\n')}\n`)
      run = []
    }
  }
  return policies
}

/** A YAML block of a Markdown file that is a policy file: it starts with the line for editors. */
const POLICY_BLOCK = `# yaml-language-server: $schema=${POLICY_SCHEMA_URL}`

describe('the policies the examples and the docs show, judged by both schemas alike', () => {
  const workflows = readdirSync(path.join(ROOT, 'examples')).filter(
    f => f.endsWith('.yml') && !f.startsWith('docs-agent')
  )
  const shown = [
    ...workflows.flatMap(f =>
      headerPolicies(read(`examples/${f}`)).map(text => [`examples/${f}`, text] as const)
    ),
    ...markdownFiles().flatMap(file =>
      yamlBlocks(file)
        .filter(b => b.text.startsWith(`${POLICY_BLOCK}\n`))
        .map(b => [b.name, b.text] as const)
    )
  ]

  it('finds the policies of the change examples and of the README', () => {
    const names = shown.map(([name]) => name)
    for (const file of ['docs-on-push.yml', 'docs-on-merge.yml', 'docs-on-merge-approved.yml'])
      expect(names).toContain(`examples/${file}`)
    expect(names.some(name => name.startsWith('README.md:'))).toBe(true)
  })

  it('reads a header policy as YAML, and only from the header', () => {
    const workflow = [
      '# A workflow.',
      '#',
      '#   max-jobs: 20/month # a comment',
      '#   paths:',
      '#     - src/**',
      '# More words.',
      '#   fold: never',
      'name: x',
      '#   approval: dashboard'
    ].join('\n')
    expect(headerPolicies(workflow)).toEqual([
      'max-jobs: 20/month # a comment\npaths:\n  - src/**\n',
      'fold: never\n'
    ])
  })

  it.each(shown)('%s is a valid policy', async (_name, text) => {
    expect(await judged(text)).toEqual({ json: true, action: true })
  })
})

describe(`${REFERENCE}: the policy file's keys`, () => {
  // Compared without the padding prettier adds, as the tables from action.yml are.
  it('has the table npm run schema writes, with every key, its default and the presets', () => {
    const reference = read(REFERENCE)
    expect(reference).toContain('## The policy file')
    expect(reference).toContain('<!-- policy: keys -->')
    expect(
      unpadTables(renderPolicyTable(reference)),
      `${REFERENCE}: the policy file's table is stale: run 'npm run schema'`
    ).toBe(unpadTables(reference))
    const table = policyTable()
    for (const key of POLICY_KEYS) expect(table).toContain(`| \`${key}\` |`)
    expect(table.split('\n')[0]).toBe(
      '| key | form | default | cautious | standard | autopilot | description |'
    )
    expect(table).toMatch(
      /\| `approval` \| none \\\| dashboard \| `none` \| `dashboard` \| — \| — \|/
    )
    expect(table).toMatch(/\| `max-credits` \| [^|]+ \| unset \| — \| `9000` \| `10000` \|/)
    expect(table).toMatch(/\| `paths` \| [^|]+ \| `\[\]` \|/)
  })

  it('the staleness check can fail: a changed description is noticed', () => {
    const reference = read(REFERENCE)
    const stale = reference.replace(/(\| `fold` +\|[^|]*\|[^\n]*\|)[^|\n]*\|$/m, '$1 An old one. |')
    expect(stale).not.toBe(reference)
    expect(unpadTables(renderPolicyTable(stale))).not.toBe(unpadTables(stale))
  })
})

import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import {
  ACTION_INPUTS,
  AGENT_ACTIONS,
  MOVED_TO_POLICY,
  NEW_POLICY_KEYS
} from '../../src/policy/actions.js'
import { POLICY_KEYS } from '../../src/policy/schema.js'
import { POLICY_SCHEMA_URL } from '../../src/policy/load.js'
import { movedInputs, policyFromInputs } from '../../src/policy/migration.js'
import { readPolicy } from '../../src/policy/read.js'
import { yamlDocument, yamlEntry, yamlFlow } from '../../src/policy/yaml-text.js'

const DAY = 86_400_000

/** The YAML a refusal carries, as a user copies it from the message. */
function pastedYaml(message: string): string {
  const at = message.indexOf('# yaml-language-server:')
  expect(at, message).toBeGreaterThan(0)
  return message.slice(at)
}

describe('moved inputs, refused with their new place', () => {
  it('names each v1 input that moved to the policy file, and the YAML to paste', () => {
    const message = movedInputs('main', {
      'api-key': 'mint_k',
      prompt: 'Document the retry options',
      'max-jobs': ' 5 / Day ',
      'skip-label': 'no docs',
      label: 'docs',
      'trigger-phrase': '/docs'
    })
    expect(message).toBe(
      [
        'mintlify/agent-action@v2 was given inputs that are not its own in v2:',
        "- 'skip-label': a key of the policy file .github/docs-agent.yml now (skip-label: …).",
        "- 'max-jobs': a key of the policy file .github/docs-agent.yml now (max-jobs: …).",
        '',
        "Remove them from the step's 'with:', and write this in .github/docs-agent.yml on the default branch (it says what the inputs said):",
        '',
        `# yaml-language-server: $schema=${POLICY_SCHEMA_URL}`,
        'skip-label: no docs',
        'max-jobs: 5/day'
      ].join('\n')
    )
  })

  it('names the policy file the config input gives', () => {
    expect(movedInputs('changes', { fold: 'never' }, 'ci/agent.yml')).toMatch(
      /a key of the policy file ci\/agent\.yml now[\s\S]*write this in ci\/agent\.yml on the default branch/
    )
  })

  it('names v1’s since given to the changes sub-action as a key of the file, with its YAML', async () => {
    const message = movedInputs('changes', {
      'code-repositories': 'acme/api',
      since: '30d',
      'code-token': 'ghp_x'
    })
    expect(message).toBe(
      [
        'mintlify/agent-action/changes@v2 was given inputs that are not its own in v2:',
        "- 'code-repositories': a key of the policy file .github/docs-agent.yml now (code-repositories: …).",
        "- 'since': a key of the policy file .github/docs-agent.yml now (since: …).",
        '',
        "Remove them from the step's 'with:', and write this in .github/docs-agent.yml on the default branch (it says what the inputs said):",
        '',
        `# yaml-language-server: $schema=${POLICY_SCHEMA_URL}`,
        'code-repositories:',
        '  - acme/api',
        'since: 30d'
      ].join('\n')
    )
    const policy = await readPolicy(pastedYaml(message ?? ''), '.github/docs-agent.yml')
    expect(policy.since).toEqual({ ms: 30 * DAY, text: '30d' })
  })

  it('keeps label and trigger-phrase inputs of the actions that decide on them', () => {
    expect(movedInputs('main', { label: 'docs-agent', 'trigger-phrase': '/docs' })).toBeUndefined()
    expect(movedInputs('changes', { label: 'docs-agent' })).toBeUndefined()
    expect(movedInputs('review', { 'trigger-phrase': '/docs' })).toBeUndefined()
    expect(policyFromInputs('main', { label: 'docs-agent', 'trigger-phrase': '/docs' })).toEqual({})
  })

  it('refuses every moved input in every action, its own inputs never', () => {
    for (const action of AGENT_ACTIONS) {
      for (const input of MOVED_TO_POLICY)
        expect(movedInputs(action, { [input]: 'x' }), `${input} → ${action}`).toMatch(
          new RegExp(`^- '${input}': a key of the policy file`, 'm')
        )
      const own = Object.fromEntries(ACTION_INPUTS[action].map(name => [name, 'x']))
      // A change run's prompt is the exception: its own input no more, `instructions` now.
      expect(movedInputs(action, own), action).toBeUndefined()
    }
  })

  it('moves a change run’s prompt to instructions, as a block the file reads back', async () => {
    const prompt = 'Write in the second person.\n\nKeep "Quickstart" short: one page.'
    const message = movedInputs('changes', { prompt, 'prompt-file': 'docs/prompt.md' }) ?? ''
    expect(message).toMatch(
      /^- 'prompt': 'instructions' in the policy file \.github\/docs-agent\.yml now: a standing instruction sent before every request\.$/m
    )
    expect(message).toMatch(
      /^- 'prompt-file': an input of mintlify\/agent-action@v2 \(a prompt, an issue or a comment to a job\); for a standing instruction in change runs, write the file's text under 'instructions' in \.github\/docs-agent\.yml\.$/m
    )
    expect(pastedYaml(message)).toContain(
      'instructions: |-\n  Write in the second person.\n\n  Keep'
    )
    expect((await readPolicy(pastedYaml(message), 'x.yml')).instructions).toBe(prompt)
  })

  it('names the action an input of another one belongs to', () => {
    const cases: [Parameters<typeof movedInputs>[0], string, RegExp][] = [
      [
        'changes',
        'follow-reviews',
        /- 'follow-reviews': an input of mintlify\/agent-action\/review@v2 \(review follow-ups on docs pull requests\)\./
      ],
      ['review', 'issue-number', /- 'issue-number': an input of mintlify\/agent-action@v2 \(/],
      [
        'review',
        'label',
        /- 'label': an input of mintlify\/agent-action@v2 \(.*\) and of mintlify\/agent-action\/changes@v2 \(.*\)\./
      ],
      [
        'changes',
        'trigger-phrase',
        /- 'trigger-phrase': an input of mintlify\/agent-action@v2 \(.*\) and of mintlify\/agent-action\/review@v2 \(.*\)\./
      ],
      ['main', 'code-token', /- 'code-token': an input of mintlify\/agent-action\/changes@v2/],
      [
        'main',
        'impact-after',
        /- 'impact-after': an input of mintlify\/agent-action\/impact@v2 \(/
      ],
      ['review', 'max-requests', /- 'max-requests': an input of mintlify\/agent-action\/impact@v2/],
      ['impact', 'wait', /- 'wait': an input of mintlify\/agent-action@v2/],
      [
        'impact',
        'fail-on',
        /- 'fail-on': an input of mintlify\/agent-action@v2 \(.*\) and of mintlify\/agent-action\/changes@v2 \(.*\) and of mintlify\/agent-action\/review@v2 \(.*\)\./
      ]
    ]
    for (const [action, input, line] of cases) {
      const message = movedInputs(action, { [input]: 'x' })
      expect(message, `${input} → ${action}`).toMatch(line)
      expect(message).toMatch(/\n\nRemove them from the step's 'with:'\.$/)
    }
  })

  it('says changes is gone, and leaves inputs no agent action has to the runner’s warning', () => {
    expect(movedInputs('changes', { changes: 'since-last' })).toMatch(
      /^- 'changes': gone: the changes sub-action \(mintlify\/agent-action\/changes@v2\) catches up on its schedule and workflow_dispatch runs, without 'changes: since-last'\.$/m
    )
    expect(movedInputs('main', { 'no-such-input': 'x', wait: 'true' })).toBeUndefined()
  })

  it('refuses a moved input given empty, with no YAML for it', () => {
    const message = movedInputs('main', { paths: '', 'paths-ignore': '  ' }) ?? ''
    expect(message).toMatch(/- 'paths': a key of the policy file/)
    expect(message).not.toContain('yaml-language-server')
  })

  it('lists the policy keys first, in the file’s order, then the others by name', () => {
    const message =
      movedInputs('changes', {
        'poll-interval': '1s',
        'max-open': '1',
        changes: 'event',
        'skip-label': 'x',
        'follow-reviews': 'all'
      }) ?? ''
    expect([...message.matchAll(/^- '([^']+)'/gm)].map(m => m[1])).toEqual([
      'skip-label',
      'max-open',
      'changes',
      'follow-reviews',
      'poll-interval'
    ])
  })
})

describe('the YAML of moved inputs reads back to what the v1 inputs meant', () => {
  const v1 = {
    'required-permission': 'Maintain',
    'allowed-bots': 'renovate, Dependabot[bot]',
    fold: 'NEVER',
    'skip-label': 'no docs',
    'include-diff': 'True',
    dashboard: 'true',
    'dashboard-title': '  Docs   to do ',
    paths: 'src/{api,cli}/**, !src/**/*.test.ts\n# generated code\nlib/**',
    'paths-ignore': '**/*.snap\n*.md',
    'code-repositories': 'acme/api: src/{a,b}/**, !**/*.test.ts\n\n# the CLI\nacme/cli',
    since: ' 30D ',
    'max-jobs': '020 / Week',
    'expire-after': '14D',
    'keep-label': 'keep',
    'max-open': '3',
    reviewers: 'authors',
    approval: 'Dashboard',
    prompt: 'Be brief.'
  }

  it('for every moved input, lists and repositories included', async () => {
    expect(Object.keys(v1)).toEqual(expect.arrayContaining([...MOVED_TO_POLICY]))
    const yaml = pastedYaml(movedInputs('changes', v1) ?? '')
    const policy = await readPolicy(yaml, '.github/docs-agent.yml')
    expect(policy).toMatchObject({
      requiredPermission: 'maintain',
      skipLabel: 'no docs',
      fold: 'never',
      includeDiff: true,
      dashboard: true,
      dashboardTitle: 'Docs to do',
      approval: 'dashboard',
      maxJobs: { max: 20, windowMs: 7 * DAY, text: '20/week' },
      maxOpen: 3,
      since: { ms: 30 * DAY, text: '30d' },
      expireAfter: { ms: 14 * DAY, text: '14d', keepLabel: 'keep' },
      reviewers: 'authors',
      instructions: 'Be brief.'
    })
    expect([...policy.allowedBots]).toEqual(['renovate', 'dependabot'])
    const counted = ['src/api/a.ts', 'src/cli/b.ts', 'src/cli/b.test.ts', 'lib/x.js', 'README.md']
    expect(counted.filter(f => policy.paths.counts(f))).toEqual([
      'src/api/a.ts',
      'src/cli/b.ts',
      'lib/x.js'
    ])
    expect(policy.paths.counts('src/__snapshots__/a.snap')).toBe(false)
    expect(policy.codeRepositories?.map(r => r.name)).toEqual(['acme/api', 'acme/cli'])
    const [api, cli] = policy.codeRepositories ?? []
    expect(
      ['src/a/x.ts', 'src/b/x.test.ts', 'src/c/x.ts'].filter(f => api?.paths?.counts(f))
    ).toEqual(['src/a/x.ts'])
    expect(cli?.paths).toBeUndefined()
  })

  it('writes lists as YAML lists, and quotes the globs YAML would read otherwise', () => {
    expect(policyFromInputs('changes', v1)).toMatchObject({
      paths: ['src/{api,cli}/**', '!src/**/*.test.ts', 'lib/**'],
      'paths-ignore': ['**/*.snap', '*.md'],
      'code-repositories': [
        { repository: 'acme/api', paths: ['src/{a,b}/**', '!**/*.test.ts'] },
        'acme/cli'
      ]
    })
    const yaml = pastedYaml(movedInputs('changes', v1) ?? '')
    expect(yaml).toContain(
      [
        'paths:',
        '  - src/{api,cli}/**',
        '  - "!src/**/*.test.ts"',
        '  - lib/**',
        'paths-ignore:',
        '  - "**/*.snap"',
        '  - "*.md"',
        'code-repositories:',
        '  - repository: acme/api',
        '    paths:',
        '      - src/{a,b}/**',
        '      - "!**/*.test.ts"',
        '  - acme/cli'
      ].join('\n')
    )
  })

  it('keeps what v1 would refuse as it is, for the policy file to name with its line', async () => {
    const yaml = pastedYaml(movedInputs('main', { dashboard: 'yes', 'max-open': 'two' }) ?? '')
    await expect(readPolicy(yaml, 'p.yml')).rejects.toThrow(
      /p\.yml has 2 problems:\n- p\.yml:2:12: dashboard: must be true or false; got "yes"\.[\s\S]*- p\.yml:3:11: max-open: must be a whole number from 1 to 100; got "two"/
    )
  })
})

describe('YAML written for people', () => {
  const strings = [
    'src/**',
    '!src/**',
    '*.md',
    '&anchor',
    'true',
    'False',
    'null',
    '~',
    '1',
    '-1.5e3',
    '0x1F',
    '0o17',
    '.inf',
    '.NaN',
    'yes',
    'off',
    'a: b',
    'a:b',
    'a #b',
    'a#b',
    '#x',
    '- x',
    '-x',
    '? x',
    ': x',
    '[a]',
    '{a,b}',
    'src/{a,b}/**',
    'a,b',
    "it's",
    'say "hi"',
    ' lead',
    'trail ',
    '',
    'tab\there',
    '\u0007bell',
    'ünïcödé',
    '😀 emoji',
    '@at',
    '`tick',
    '%pct',
    '|pipe',
    '>gt',
    '-',
    '--- x',
    '...',
    'C:\\path',
    '\\',
    'end:'
  ]

  it('writes every string so that it reads back the same, in a block and in a flow', () => {
    for (const text of strings) {
      expect(parse(yamlEntry('k', text)), JSON.stringify(text)).toEqual({ k: text })
      expect(parse(`k: ${yamlFlow([text, { [text]: text }])}`), JSON.stringify(text)).toEqual({
        k: [text, { [text]: text }]
      })
      expect(parse(yamlEntry(text, [text])), JSON.stringify(text)).toEqual({ [text]: [text] })
    }
  })

  it('writes text of several lines as a literal block when it reads back the same', () => {
    for (const text of [
      'one\ntwo',
      'one\n\n  indented\nlast',
      'with: colon\n- dash\n# hash',
      '  leading space\nx',
      'trailing newline\n',
      'bell\u0007\nx'
    ]) {
      const yaml = yamlDocument({ instructions: text, after: 'x' })
      expect(parse(yaml), JSON.stringify(text)).toEqual({ instructions: text, after: 'x' })
      const item = yamlEntry('list', [text, 'y'])
      expect(parse(item), JSON.stringify(text)).toEqual({ list: [text, 'y'] })
    }
    expect(yamlEntry('k', 'one\ntwo')).toBe('k: |-\n  one\n  two')
  })

  it('writes lists and mappings, empty ones too', () => {
    const value = {
      empty: [],
      none: {},
      mapping: { a: 1, 'b c': ['d'] },
      nested: [{ repository: 'a/b', paths: ['x'] }, ['p', 'q'], {}],
      numbers: [1, true]
    }
    const yaml = yamlDocument(value)
    expect(parse(yaml)).toEqual(value)
    expect(yaml).toBe(
      [
        'empty: []',
        'none: {}',
        'mapping:',
        '  a: 1',
        '  b c:',
        '    - d',
        'nested:',
        '  - repository: a/b',
        '    paths:',
        '      - x',
        '  - [p, q]',
        '  - {}',
        'numbers:',
        '  - 1',
        '  - true'
      ].join('\n')
    )
  })
})

describe('every key of the policy file, given as an input', () => {
  it('the moved and the new keys are the schema’s keys, named once each', () => {
    expect([...MOVED_TO_POLICY, ...NEW_POLICY_KEYS].sort()).toEqual([...POLICY_KEYS].sort())
  })

  it('is refused naming the file, and its YAML is the file’s: numbers as numbers', async () => {
    const message =
      movedInputs('changes', { 'max-credits': '9000', 'credits-per-run': '200' }) ?? ''
    expect(message).toContain(
      "- 'max-credits': a key of the policy file .github/docs-agent.yml now (max-credits: …)."
    )
    const policy = await readPolicy(pastedYaml(message), '.github/docs-agent.yml')
    expect(policy).toMatchObject({ maxCredits: { max: 9000 }, creditsPerRun: 200 })
  })
})

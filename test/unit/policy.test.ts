import { describe, expect, it } from 'vitest'
import { DEFAULTS, PRESETS } from '../../src/policy/presets.js'
import { defaultPolicy } from '../../src/policy/policy.js'
import { PolicyError, looksSecret } from '../../src/policy/problems.js'
import { MAX_POLICY_BYTES } from '../../src/policy/choices.js'
import { readPolicy } from '../../src/policy/read.js'
import { jobBudget } from '../../src/policy/budget.js'
import { MAX_STARTS } from '../../src/records/ledger/starts.js'
import { InputError } from '../../src/runner/errors.js'

const FILE = '.github/docs-agent.yml'
const DAY = 86_400_000

const read = (text: string) => readPolicy(text, FILE, { repository: 'acme/docs' })

/** The error a text gets; fails the test when it reads. */
async function refused(text: string): Promise<PolicyError> {
  const error: unknown = await read(text).then(
    () => undefined,
    (e: unknown) => e
  )
  expect(error, `read:\n${text}`).toBeInstanceOf(PolicyError)
  return error as PolicyError
}

const lines = (...l: string[]): string => `${l.join('\n')}\n`

describe('the policy file: defaults, presets and typed values', () => {
  it('is the built-in defaults when empty, or only comments', async () => {
    for (const text of ['', '# nothing yet\n', 'version: 1\n']) {
      const policy = await read(text)
      expect(policy).toMatchObject({
        file: FILE,
        requiredPermission: 'write',
        skipLabel: 'no-docs',
        includeDiff: false,
        fold: 'open-pr',
        dashboard: true,
        dashboardTitle: 'Docs agent dashboard',
        approval: 'none',
        creditsPerRun: 180
      })
      expect(policy.paths.all).toBe(true)
      expect(policy.allowedBots.size).toBe(0)
      for (const unset of [
        'preset',
        'instructions',
        'codeRepositories',
        'since',
        'maxJobs',
        'maxCredits',
        'maxOpen',
        'expireAfter',
        'reviewers',
        'docsRoot'
      ])
        expect(policy, unset).not.toHaveProperty(unset)
    }
    const builtIn = defaultPolicy()
    expect(builtIn.file).toBeUndefined()
    expect(builtIn.values).toEqual(DEFAULTS)
  })

  it('types every key for the flows: durations, budgets, bots, filters, repositories', async () => {
    const policy = await read(
      lines(
        'required-permission: none',
        'allowed-bots: [renovate, "Dependabot[bot]"]',
        'instructions: |',
        '  Write in the second person.',
        '  Never edit the changelog.',
        'paths:',
        '  - src/{api,cli}/**',
        '  - "!**/*.test.ts"',
        'paths-ignore: [src/api/generated/**]',
        'skip-label: skip docs',
        'include-diff: true',
        'fold: never',
        'code-repositories:',
        '  - acme/api',
        '  - repository: acme/cli',
        '    paths: [cmd/**]',
        '    paths-ignore: [cmd/internal/**]',
        'since: 30d',
        'dashboard-title: Docs to do',
        'approval: dashboard',
        'max-jobs: 20/month',
        'max-credits: 5000',
        'credits-per-run: 250',
        'max-open: 2',
        'expire-after: 2w',
        'keep-label: keep',
        'reviewers: authors',
        'docs-root: docs/'
      )
    )
    expect(policy).toMatchObject({
      requiredPermission: 'none',
      instructions: 'Write in the second person.\nNever edit the changelog.',
      skipLabel: 'skip docs',
      includeDiff: true,
      fold: 'never',
      since: { ms: 30 * DAY, text: '30d' },
      dashboardTitle: 'Docs to do',
      approval: 'dashboard',
      maxJobs: { max: 20, windowMs: 30 * DAY, text: '20/month' },
      maxCredits: { max: 5000, windowMs: 30 * DAY },
      creditsPerRun: 250,
      maxOpen: 2,
      expireAfter: { ms: 14 * DAY, text: '2w', keepLabel: 'keep' },
      reviewers: 'authors',
      docsRoot: 'docs'
    })
    expect([...policy.allowedBots]).toEqual(['renovate', 'dependabot'])
    // A real list: the comma inside braces is part of the glob.
    expect(policy.paths.counts('src/cli/main.ts')).toBe(true)
    expect(policy.paths.counts('src/api/x.test.ts')).toBe(false)
    expect(policy.paths.counts('src/api/generated/x.ts')).toBe(false)
    expect(policy.paths.counts('src/web/x.ts')).toBe(false)
    const [api, cli] = policy.codeRepositories ?? []
    expect(api).toEqual({ owner: 'acme', repo: 'api', name: 'acme/api' })
    expect(cli).toMatchObject({ owner: 'acme', repo: 'cli', name: 'acme/cli' })
    expect(cli?.paths?.counts('cmd/run.go')).toBe(true)
    expect(cli?.paths?.counts('cmd/internal/x.go')).toBe(false)
    expect(cli?.paths?.counts('src/api/x.ts')).toBe(false)
  })

  it('starts from a preset with extends; a key the file writes overrides it', async () => {
    const cautious = await read('extends: cautious\n')
    expect(cautious).toMatchObject({
      preset: 'cautious',
      approval: 'dashboard',
      maxOpen: 1,
      maxJobs: { max: 20, windowMs: 30 * DAY, text: '20/month' }
    })
    expect(cautious).not.toHaveProperty('maxCredits')
    expect(await read('extends: standard\n')).toMatchObject({
      approval: 'none',
      maxOpen: 1,
      maxCredits: { max: 9000, windowMs: 30 * DAY }
    })
    const autopilot = await read(lines('extends: autopilot', 'max-open: 5', 'max-jobs: 3/day'))
    expect(autopilot).toMatchObject({
      maxOpen: 5,
      maxCredits: { max: 10000 },
      maxJobs: { max: 3, windowMs: DAY, text: '3/day' }
    })
    expect(autopilot.values['max-open']).toBe(5)
    expect(await read(lines('extends: cautious', 'approval: none'))).toMatchObject({
      approval: 'none',
      maxOpen: 1
    })
  })

  it('has presets that are policy files of their own', async () => {
    for (const [name, preset] of Object.entries(PRESETS)) {
      const text = Object.entries(preset)
        .map(([k, v]) => `${k}: ${String(v)}`)
        .join('\n')
      await expect(read(text), name).resolves.toBeDefined()
    }
  })
})

describe('the policy file’s problems: file, line, key, what is wrong, what is right', () => {
  it('names a wrong value with its line, column and key, what it got and an example', async () => {
    const error = await refused(lines('skip-label: docs', 'max-jobs: 5/year'))
    expect(error).toBeInstanceOf(InputError)
    expect(error.message).toBe(
      `${FILE}:2:11: max-jobs: must be N/day, N/week or N/month with N a whole number from 1 to 2000; got "5/year". For example: max-jobs: 20/month`
    )
    expect(error.file).toBe(FILE)
    expect(error.problems).toEqual([
      { line: 2, column: 11, key: 'max-jobs', message: expect.stringContaining('5/year') }
    ])
  })

  it('names a wrong type, and a text where a list is meant', async () => {
    expect((await refused('include-diff: yes\n')).message).toBe(
      `${FILE}:1:15: include-diff: must be true or false; got "yes". For example: include-diff: true`
    )
    expect((await refused('paths: src/**, docs/**\n')).message).toBe(
      `${FILE}:1:8: paths: must be a YAML list of globs; got "src/**, docs/**". For example: paths: [src/**, "!src/**/*.test.ts"]`
    )
    expect((await refused('skip-label:\n')).message).toBe(
      `${FILE}:1:12: skip-label: must be a label name of 1 to 50 characters; got nothing. For example: skip-label: no-docs`
    )
  })

  it('names values out of range, each at its line, top to bottom', async () => {
    const error = await refused(
      lines('expire-after: 30m', 'max-open: 0', 'credits-per-run: 2.5', `instructions: "  "`)
    )
    expect(error.message).toBe(
      [
        `The policy file ${FILE} has 4 problems:`,
        `- ${FILE}:1:15: expire-after: must be from 1h to 365d; got "30m". For example: expire-after: 14d`,
        `- ${FILE}:2:11: max-open: must be a whole number from 1 to 100; got 0. For example: max-open: 1`,
        `- ${FILE}:3:18: credits-per-run: must be a whole number from 1 to 10000; got 2.5. For example: credits-per-run: 180`,
        `- ${FILE}:4:15: instructions: must be text, not blank; got "  ". For example: instructions: Write in the second person. Never edit the changelog pages.`
      ].join('\n')
    )
  })

  it('reads since from 1h to 90d, in milliseconds with its text', async () => {
    for (const [text, ms] of [
      ['1h', 3_600_000],
      ['36h', 36 * 3_600_000],
      ['2w', 14 * DAY],
      ['90d', 90 * DAY]
    ] as const) {
      const policy = await read(lines('code-repositories: [acme/api]', `since: ${text}`))
      expect(policy.since, text).toEqual({ ms, text })
      expect(policy.values.since, text).toBe(text)
    }
  })

  it('names a since out of range, or not a duration, at its line', async () => {
    for (const [text, why] of [
      ['0h', 'must be from 1h to 90d; got "0h"'],
      ['59m', 'must be from 1h to 90d; got "59m"'],
      ['91d', 'must be from 1h to 90d; got "91d"'],
      ['13w', 'must be from 1h to 90d; got "13w"'],
      ['30 days', 'must be a duration such as 30d, 2w or 36h; got "30 days"'],
      ['30', 'must be a duration such as 30d; got 30']
    ] as const) {
      const error = await refused(lines('code-repositories: [acme/api]', `since: ${text}`))
      expect(error.message, text).toBe(`${FILE}:2:8: since: ${why}. For example: since: 30d`)
      expect(error.problems, text).toEqual([
        { line: 2, column: 8, key: 'since', message: expect.any(String) }
      ])
    }
  })

  it('lists at most ten problems, and says how many more', async () => {
    const error = await refused(
      Array.from({ length: 12 }, (_, i) => `  - "src/[${i}"`)
        .join('\n')
        .replace(/^/, 'paths:\n')
    )
    expect(error.problems).toHaveLength(12)
    expect(error.message).toMatch(/has 12 problems:\n/)
    expect(error.message.split('\n')).toHaveLength(12)
    expect(error.message).toMatch(
      /docs-agent\.yml:2:5: paths\[0\]: is not a glob picomatch can read .*\n.*\n[\s\S]*- and 2 more, named once these are fixed\.$/
    )
  })

  it('suggests the key that was meant for an unknown one', async () => {
    expect((await refused('max-job: 5/day\n')).message).toBe(
      `${FILE}:1:1: max-job: 'max-job' is not a key of the policy file; did you mean 'max-jobs'? (such as max-jobs: 20/month)`
    )
    expect((await refused('paths_ignore: [x]\n')).message).toMatch(/did you mean 'paths-ignore'\?/)
    expect((await refused('colour: blue\n')).message).toMatch(
      /'colour' is not a key of the policy file; the keys are version, extends, required-permission, .*, docs-root\.$/
    )
  })

  it('says an input stays an input, and never shows a secret written in the file', async () => {
    const key = 'mint_0123456789abcdefghijklmnopqrstuvwxyz'
    const error = await refused(lines(`api-key: ${key}`, 'dry-run: true'))
    expect(error.message).not.toContain(key)
    expect(error.problems.map(p => [p.line, p.key])).toEqual([
      [1, 'api-key'],
      [2, 'dry-run']
    ])
    expect(error.problems[0]?.message).toBe(
      `'api-key' is an input of the workflow's step (every agent action has it), not a key of the policy file: keep it under 'with:' there, from a secret, and remove it here.`
    )
    expect((await refused('follow-reviews: all\n')).message).toMatch(
      /'follow-reviews' is an input of the workflow's step \(mintlify\/agent-action\/review@v2\)/
    )
    expect((await refused('prompt: Be brief\n')).message).toMatch(
      /a standing instruction sent before every request is 'instructions'/
    )
    expect((await refused('changes: since-last\n')).message).toMatch(/'changes' is gone in v2/)
    expect((await refused('config: x.yml\n')).message).toMatch(/the input that names this file/)
    // A wrong value that looks like a token is not shown either.
    const token = `ghp_${'a1B2'.repeat(9)}`
    const budget = await refused(`max-jobs: "${token} a month"\n`)
    expect(budget.message).not.toContain(token)
    expect(budget.message).toMatch(/got a value that looks like a secret \(not shown\)/)
  })

  it('refuses label and trigger-phrase: inputs of the actions that decide on them', async () => {
    const error = await refused(
      lines('skip-label: no-docs', 'label: docs-agent', 'trigger-phrase: /docs-agent')
    )
    expect(error.message).toBe(
      [
        `The policy file ${FILE} has 2 problems:`,
        `- ${FILE}:2:1: label: 'label' is an input of the workflow's step (mintlify/agent-action@v2, mintlify/agent-action/changes@v2), not a key of the policy file: keep it under 'with:' there, and remove it here.`,
        `- ${FILE}:3:1: trigger-phrase: 'trigger-phrase' is an input of the workflow's step (mintlify/agent-action@v2, mintlify/agent-action/review@v2), not a key of the policy file: keep it under 'with:' there, and remove it here.`
      ].join('\n')
    )
    // Refused as inputs whatever their value, one that would not be a label too.
    expect((await refused('label: ""\n')).problems).toEqual([
      { line: 1, column: 1, key: 'label', message: expect.stringMatching(/^'label' is an input/) }
    ])
  })

  it('never shows a secret pasted as a key, a tag or an alias', async () => {
    const token = `ghp_${'a1B2'.repeat(9)}`
    for (const text of [`${token}: x\n`, `skip-label: !${token}\n`, `skip-label: *${token}\n`]) {
      const error = await refused(text)
      expect(error.message, text).not.toContain(token)
      expect(error.problems[0]?.line, text).toBe(1)
    }
  })

  it('tells a secret from a value people write', () => {
    for (const secret of [
      'mint_abcdef123456',
      `ghs_${'x'.repeat(36)}`,
      'github_pat_11ABCDEFG0123456789',
      'a'.repeat(20) + 'B'.repeat(20)
    ])
      expect(looksSecret(secret), secret).toBe(true)
    for (const text of [
      'src/components/navigation/very-long-folder-name/**/*.tsx',
      'Docs agent dashboard',
      '20/month',
      'renovate[bot]'
    ])
      expect(looksSecret(text), text).toBe(false)
  })

  it('names YAML that does not parse, with the key it is in', async () => {
    expect((await refused(lines('skip-label: [unclosed', 'fold: never'))).message).toBe(
      `${FILE}:2:1: skip-label: is not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]. Check the indentation and the quotes.`
    )
    expect((await refused(lines('skip-label: a', '\tfold: never'))).problems[0]).toMatchObject({
      line: 2,
      column: 1,
      message: expect.stringMatching(/^is not valid YAML: Tabs are not allowed as indentation/)
    })
    // Braces in a list on one line are YAML's: the message says to quote the glob.
    expect((await refused('paths: [src/{api,cli}/**, docs/**]\n')).message).toBe(
      `${FILE}:1:13: paths: is not valid YAML: Missing , or : between flow sequence items. Inside [ ], YAML reads {, } and , itself: quote a glob that has them ("src/{api,cli}/**"), or write the list one item a line after "- ".`
    )
    expect((await refused(lines('skip-label: a', '---', 'fold: never'))).message).toMatch(
      /:2:1: the file holds more than one YAML document: remove the --- line/
    )
  })

  it('refuses a key set twice, at the second', async () => {
    expect((await refused(lines('skip-label: a', 'fold: never', 'skip-label: b'))).message).toBe(
      `${FILE}:3:1: skip-label: is set twice: keep one.`
    )
  })

  it('says to quote a glob that YAML reads as a tag or an alias', async () => {
    expect((await refused(lines('paths:', '  - src/**', '  - !src/**/*.test.ts'))).message).toBe(
      `${FILE}:3:5: paths[1]: !src/**/*.test.ts reads as a YAML tag. A glob that starts with ! must be quoted: "!src/**/*.test.ts".`
    )
    expect((await refused('paths-ignore: [*.md]\n')).message).toBe(
      `${FILE}:1:16: paths-ignore[0]: *.md reads as a YAML alias, and no &.md comes before it. A glob that starts with * must be quoted: "*.md".`
    )
    expect((await refused('skip-label: !!str docs\n')).message).toBe(
      `${FILE}:1:13: skip-label: YAML tags (!!str) are not read in a policy file: write the value without it.`
    )
  })

  it('reads anchors and aliases, and refuses those that expand without end', async () => {
    const shared = await read(
      lines(
        'paths: &code [src/**]',
        'code-repositories:',
        '  - {repository: acme/api, paths: *code}'
      )
    )
    expect(shared.codeRepositories?.[0]?.paths?.counts('src/a.ts')).toBe(true)
    const bomb = lines(
      'x: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]',
      'y: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]',
      'z: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]',
      'paths: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]'
    )
    expect((await refused(bomb)).message).toBe(
      `${FILE}: its aliases (*name) expand to more than 100 values: write the lists out.`
    )
  })

  it('refuses a file over 64 KB before parsing it', async () => {
    const over = `instructions: ${'ab '.repeat(MAX_POLICY_BYTES).slice(0, MAX_POLICY_BYTES - 13)}`
    expect((await refused(over)).message).toBe(
      `${FILE}: is 65 KB; a policy file is at most 64 KB. Is the path the policy file's?`
    )
    // At 64 KB it is read: what is wrong then is the instructions' length.
    expect((await refused(over.slice(0, -1))).message).toMatch(
      /:1:15: instructions: must be at most 8192 characters; got "ab ab ab/
    )
  })

  it('refuses a file that is not a mapping of keys', async () => {
    expect((await refused('- skip-label\n- fold\n')).message).toBe(
      `${FILE}:1:1: must be a mapping of keys such as extends: standard; got a list.`
    )
    expect((await refused('docs-agent\n')).message).toBe(
      `${FILE}:1:1: must be a mapping of keys such as extends: standard; got "docs-agent".`
    )
  })

  it('refuses a version of a newer action before its keys, which may be new', async () => {
    expect((await refused(lines('version: 2', 'quiet-hours: 22-6'))).message).toBe(
      `${FILE}:1:10: version: 2 is a format written for a newer action; this one reads version 1. Update the action in the workflow, or write the file for version 1.`
    )
    expect((await refused('version: 0\n')).message).toMatch(
      /:1:10: version: must be the number 1; got 0\./
    )
    expect((await refused('version: "1"\n')).message).toBe(
      `${FILE}:1:10: version: must be the number 1, without quotes; got "1". For example: version: 1`
    )
  })

  it('checks the rules across keys after the preset, pointing at the key the file writes', async () => {
    expect((await refused(lines('extends: cautious', 'dashboard: false'))).problems[0]).toEqual({
      line: 2,
      column: 1,
      key: 'dashboard',
      message:
        'approval: dashboard (from the preset cautious) needs dashboard: true: the changes wait for a tick on the dashboard issue. Write dashboard: true, or approval: none.'
    })
    expect(
      (await refused(lines('approval: dashboard', 'dashboard: false'))).problems[0]
    ).toMatchObject({
      line: 2,
      key: 'dashboard',
      message: expect.stringMatching(/^approval: dashboard needs dashboard: true/)
    })
    expect(
      (await refused(lines('dashboard: false', 'code-repositories: [acme/api]'))).message
    ).toMatch(/:1:1: dashboard: code-repositories needs dashboard: true: the dashboard's ledger/)
  })

  it('refuses dashboard: false with a limit only the dashboard’s ledger holds, written or from a preset', async () => {
    const ledger = (why: string) => `needs dashboard: true: the dashboard's ledger ${why}.`
    expect((await refused(lines('extends: standard', 'dashboard: false'))).message).toBe(
      [
        `The policy file ${FILE} has 2 problems:`,
        `- ${FILE}:2:1: dashboard: max-credits (from the preset standard) ${ledger('counts the jobs and follow-ups the credits are estimated from, so without it nothing would hold the budget')} Write dashboard: true, or remove extends: standard (a key cannot unset what its preset sets).`,
        `- ${FILE}:2:1: dashboard: max-open (from the preset standard) ${ledger('lists the docs pull requests open, so without it nothing would hold the cap')} Write dashboard: true, or remove extends: standard (a key cannot unset what its preset sets).`
      ].join('\n')
    )
    const written = await refused(
      lines('max-jobs: 5/day', 'expire-after: 14d', 'dashboard: false', 'max-open: 2')
    )
    expect(written.problems).toEqual([
      {
        line: 3,
        column: 1,
        key: 'dashboard',
        message: `max-jobs ${ledger('counts the jobs and follow-ups started, so without it nothing would hold the budget')} Write dashboard: true, or remove max-jobs.`
      },
      {
        line: 3,
        column: 1,
        key: 'dashboard',
        message: `max-open ${ledger('lists the docs pull requests open, so without it nothing would hold the cap')} Write dashboard: true, or remove max-open.`
      },
      {
        line: 3,
        column: 1,
        key: 'dashboard',
        message: `expire-after ${ledger('lists the docs pull requests to close, so without it none would ever be closed')} Write dashboard: true, or remove expire-after.`
      }
    ])
    expect(
      (await refused(lines('extends: cautious', 'dashboard: false'))).problems.map(p => p.message)
    ).toEqual([
      expect.stringMatching(/^approval: dashboard \(from the preset cautious\) needs/),
      expect.stringMatching(/^max-jobs \(from the preset cautious\) needs dashboard: true/),
      expect.stringMatching(/^max-open \(from the preset cautious\) needs dashboard: true/)
    ])
    // What holds without the ledger: the estimate a run is said to spend, quiet hours, reviewers.
    await expect(
      read(
        lines(
          'dashboard: false',
          'credits-per-run: 250',
          'quiet-hours: {days: [sunday]}',
          'reviewers: authors'
        )
      )
    ).resolves.toMatchObject({ dashboard: false, creditsPerRun: 250, reviewers: 'authors' })
  })

  it('refuses a max-credits that fits no run: nothing would ever start', async () => {
    expect((await refused('max-credits: 100\n')).message).toBe(
      `${FILE}:1:1: max-credits: 100 is less than credits-per-run: 180 (the default), the estimate of one job or follow-up: none would ever fit, so nothing would start. Write max-credits: 180 or more, or a lower credits-per-run.`
    )
    expect((await refused(lines('extends: standard', 'credits-per-run: 9500'))).message).toBe(
      `${FILE}:2:1: credits-per-run: 9500 is more than max-credits: 9000 (from the preset standard): no job or follow-up would ever fit, so nothing would start. Write credits-per-run: 9000 or less, or a higher max-credits.`
    )
    expect(
      (await refused(lines('credits-per-run: 500', 'max-credits: 499'))).problems[0]
    ).toMatchObject({
      line: 2,
      key: 'max-credits',
      message: expect.stringMatching(/^499 is less than credits-per-run: 500, the estimate/)
    })
    // One run's worth is a budget.
    expect((await read(lines('credits-per-run: 500', 'max-credits: 500'))).maxCredits?.max).toBe(
      500
    )
  })

  it('refuses budgets beyond the 2000 starts the dashboard’s ledger keeps', async () => {
    expect((await refused('max-jobs: 2001/day\n')).message).toBe(
      `${FILE}:1:11: max-jobs: must be N/day, N/week or N/month with N a whole number from 1 to 2000: the dashboard's ledger keeps the newest 2000 starts, so a higher count would never hold; got "2001/day". For example: max-jobs: 20/month`
    )
    expect((await read('max-jobs: 2000/day\n')).maxJobs?.max).toBe(2000)
    // The pattern (which the editors' JSON Schema holds too) takes exactly 1 to MAX_STARTS.
    const taken = (n: number | string) => jobBudget(`${n}/week`)?.max
    for (const n of [1, 9, 10, 99, 100, 999, 1000, 1999, MAX_STARTS]) expect(taken(n)).toBe(n)
    for (const n of [0, '01', MAX_STARTS + 1, 2999, 9999, 10_000]) expect(taken(n)).toBeUndefined()
    expect((await refused('max-credits: 1000000\n')).message).toBe(
      `${FILE}:1:1: max-credits: 1000000 at credits-per-run: 180 (the default) allows 5555 jobs and follow-ups in 30 days, more than the 2000 starts the dashboard's ledger keeps: the budget would never hold. Write max-credits: 360179 or less, or a higher credits-per-run.`
    )
    expect((await refused(lines('extends: autopilot', 'credits-per-run: 4'))).message).toBe(
      `${FILE}:2:1: credits-per-run: 4 lets max-credits: 10000 (from the preset autopilot) allow 2500 jobs and follow-ups in 30 days, more than the 2000 starts the dashboard's ledger keeps: the budget would never hold. Write credits-per-run: 5 or more, or a lower max-credits.`
    )
    expect((await read(lines('extends: autopilot', 'credits-per-run: 5'))).creditsPerRun).toBe(5)
    // The values the messages suggest are the exact bounds: taken, and one step past them refused.
    expect((await read('max-credits: 360179\n')).maxCredits?.max).toBe(360_179)
    await refused('max-credits: 360180\n')
    expect((await refused(lines('max-credits: 4002', 'credits-per-run: 2'))).message).toContain(
      'Write max-credits: 4001 or less'
    )
    expect((await read(lines('max-credits: 4001', 'credits-per-run: 2'))).maxCredits?.max).toBe(
      4001
    )
  })

  it('refuses quiet hours that are never quiet, and a day listed twice', async () => {
    expect((await refused(lines('quiet-hours:', '  from: "07:00"', '  to: "07:00"'))).message).toBe(
      `${FILE}:3:7: quiet-hours.to: from and to are both 07:00: a window that ends where it starts is never quiet. Write two different times (to may be the next morning), or list whole days in days. For example: quiet-hours: {days: [saturday, sunday], from: 20:00, to: 07:00, timezone: Europe/Berlin}`
    )
    expect((await refused('quiet-hours: {days: [sunday, monday, sunday]}\n')).problems).toEqual([
      {
        line: 1,
        column: 21,
        key: 'quiet-hours.days',
        message: expect.stringMatching(/^lists sunday twice: list each day once\. For example:/)
      }
    ])
    expect(
      (await read('quiet-hours: {days: [saturday, sunday], from: "07:00", to: "07:01"}\n'))
        .quietHours?.window
    ).toEqual({ from: 420, to: 421 })
  })

  it('names a since without code-repositories once, at its line', async () => {
    expect((await refused(lines('skip-label: x', 'since: 30d'))).message).toBe(
      `${FILE}:2:8: since: needs code-repositories: it is how far back a code repository the dashboard has no last documented commit for is read. Remove it, or list the repositories.`
    )
  })

  it('checks the code repositories: names, their own keys, twice, this repository', async () => {
    const error = await refused(
      lines(
        'code-repositories:',
        '  - acme/api',
        '  - {repository: acme/cli, branch: main}',
        '  - {repository: acme/web, paths: [1]}',
        '  - 3',
        '  - acme',
        '  - {repository: acme/..}'
      )
    )
    expect(
      error.problems.map(p => `${p.line}:${p.column} ${p.key}: ${p.message.split(';')[0]}`)
    ).toEqual([
      `3:28 code-repositories[1].branch: 'branch' is not a key of a repository: write repository, paths and paths-ignore only (such as code-repositories: [acme/cli, {repository: acme/api, paths: [src/**, "!**/*.test.ts"]}]).`,
      '4:36 code-repositories[2].paths[0]: must be a glob such as src/** (text, quoted when it starts with ! or *)',
      '5:5 code-repositories[3]: must be owner/repo, or a mapping of repository with its own paths and paths-ignore',
      '6:5 code-repositories[4]: must be a repository as owner/repo, such as acme/api',
      '7:18 code-repositories[5].repository: must be a repository as owner/repo, such as acme/api'
    ])
    const twice = await refused(
      lines('code-repositories:', '  - acme/api', '  - repository: ACME/API', '  - acme/docs')
    )
    expect(twice.message).toBe(
      [
        `The policy file ${FILE} has 2 problems:`,
        `- ${FILE}:3:17: code-repositories[1].repository: lists ACME/API a second time: keep one entry per repository.`,
        `- ${FILE}:4:5: code-repositories[2]: acme/docs is the repository this workflow runs in: its merges are the docs themselves, never documented again. List the code repositories only, or remove code-repositories to document this repository's own changes.`
      ].join('\n')
    )
  })
})

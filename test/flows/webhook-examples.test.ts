import { readFileSync } from 'node:fs'
import path from 'node:path'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { useAgentServices } from '../support/agent-services.js'
import { type GitHubValidator, gitHubValidator } from '../support/github-openapi.js'
import { ROOT, type RunResult } from '../support/run-action.js'
import { runInProcess } from '../support/run-in-process.js'

// Every payload of GitHub's published webhook examples (@octokit/webhooks-examples) for the events
// the action runs on, and variants derived from them, through the agent's run() in-process against
// the simulator and the fake GitHub: no crash, the exit and outcome each one should have, only
// requests GitHub's OpenAPI description documents, and none at all for issue activity that is not a
// request.
type Payload = Record<string, unknown>
const PUBLISHED = JSON.parse(
  readFileSync(
    path.join(
      ROOT,
      'node_modules',
      '@octokit',
      'webhooks-examples',
      'api.github.com',
      'index.json'
    ),
    'utf8'
  )
) as { name: string; examples: Payload[] }[]
const published = (name: string): Payload[] => PUBLISHED.find(e => e.name === name)?.examples ?? []

const TOKEN = 'ghs_webhook_examples_token'
const TRIGGER = 'docs-agent'
const BOT = { login: 'renovate[bot]', id: 29139614, type: 'Bot' }

/**
 * What a run should do. `yes`: one job created and reported; `no`: no job, `skipped`, with no crash.
 * `quiet`: not one request to GitHub or the service.
 */
interface Case {
  name: string
  eventName: string
  payload: Payload
  inputs: Record<string, string>
  /** The sender's permission on the repository, as the fake GitHub answers it. */
  permission: 'write' | 'read'
  start: 'yes' | 'no'
  quiet: boolean
}

const clone = (payload: Payload): Payload => structuredClone(payload)
const withBot = (payload: Payload): Payload => ({ ...clone(payload), sender: BOT })
const obj = (value: unknown): Payload => (value ?? {}) as Payload

/** `issues`: only adding the trigger label (or opening an issue carrying it) starts. */
function issueCases(): Case[] {
  return published('issues').flatMap((original, i): Case[] => {
    const action = String(original.action)
    const name = `issues ${action} #${i}`
    // The trigger label: the label added or removed is docs-agent, and the issue carries it.
    const labelled = clone(original)
    if (labelled.label) labelled.label = { ...obj(labelled.label), name: TRIGGER }
    const issue = obj(labelled.issue)
    issue.labels = [...((issue.labels as unknown[]) ?? []), { id: 1, name: TRIGGER }]
    const request = action === 'labeled' || action === 'opened'
    const base = { eventName: 'issues', inputs: {}, permission: 'write' } as const
    return [
      {
        // No 'label': the trigger label is docs-agent, so the published labels start nothing.
        ...base,
        name: `${name}, as published`,
        payload: original,
        start: 'no',
        quiet: true
      },
      {
        ...base,
        name: `${name}, label: ${TRIGGER}, published labels`,
        payload: original,
        inputs: { label: TRIGGER },
        start: 'no',
        quiet: true
      },
      {
        ...base,
        name: `${name}, label: ${TRIGGER}, the issue carries it`,
        payload: labelled,
        inputs: { label: TRIGGER },
        start: request ? 'yes' : 'no',
        quiet: !request
      },
      {
        ...base,
        name: `${name}, a bot sender`,
        payload: withBot(labelled),
        inputs: { label: TRIGGER },
        start: 'no',
        quiet: !request
      },
      {
        ...base,
        name: `${name}, a read-only sender`,
        payload: labelled,
        inputs: { label: TRIGGER },
        permission: 'read',
        start: 'no',
        quiet: !request
      }
    ]
  })
}

/** `issue_comment`: a new comment that starts with the phrase, from someone who may. */
function commentCases(): Case[] {
  return published('issue_comment').flatMap((original, i): Case[] => {
    const action = String(original.action)
    const name = `issue_comment ${action} #${i}`
    const command = clone(original)
    const comment = obj(command.comment)
    comment.body = `/docs-agent ${String(comment.body)}`
    const created = action === 'created'
    const base = { eventName: 'issue_comment', inputs: {}, permission: 'write' } as const
    return [
      { ...base, name: `${name}, as published`, payload: original, start: 'no', quiet: true },
      {
        ...base,
        name: `${name}, starting with /docs-agent`,
        payload: command,
        start: created ? 'yes' : 'no',
        quiet: !created
      },
      {
        ...base,
        name: `${name}, starting with /docs-agent, a bot sender`,
        payload: withBot(command),
        start: 'no',
        quiet: !created
      },
      {
        ...base,
        name: `${name}, starting with /docs-agent, a read-only sender`,
        payload: command,
        permission: 'read',
        start: 'no',
        quiet: !created
      }
    ]
  })
}

/** Activity on a pull request not merged yet that asks for its docs (and `labeled` with `label`). */
const PULL_REQUESTS = new Set(['opened', 'reopened', 'synchronize', 'ready_for_review'])

/**
 * `pull_request` and `pull_request_target`: a merge is documented, a close without one is not; on a
 * pull request not merged yet only opening, reopening, updating, marking it ready or adding the
 * trigger label (input `label`) starts a run, for a sender who may; every other activity is
 * skipped before any request.
 */
function pullCases(): Case[] {
  return ['pull_request', 'pull_request_target'].flatMap(eventName =>
    published('pull_request').flatMap((original, i): Case[] => {
      const action = String(original.action)
      const name = `${eventName} ${action} #${i}`
      const base = { eventName, inputs: {}, permission: 'write' } as const
      if (action !== 'closed') {
        const asks = PULL_REQUESTS.has(action)
        const cases: Case[] = [
          {
            ...base,
            name: `${name}, as published`,
            payload: original,
            start: asks ? 'yes' : 'no',
            quiet: !asks
          },
          // Not merged: the sender is gated, and bots and read-only people are refused.
          {
            ...base,
            name: `${name}, a bot sender`,
            payload: withBot(original),
            start: 'no',
            quiet: !asks
          },
          {
            ...base,
            name: `${name}, a read-only sender`,
            payload: original,
            permission: 'read',
            start: 'no',
            quiet: !asks
          },
          // The trigger label asks only when it is the label added.
          {
            ...base,
            name: `${name}, label: ${TRIGGER}`,
            payload: original,
            inputs: { label: TRIGGER },
            start: asks ? 'yes' : 'no',
            quiet: !asks
          }
        ]
        const label = String(obj(original.label).name ?? '')
        if (action === 'labeled' || action === 'unlabeled')
          cases.push({
            ...base,
            name: `${name}, label: ${label} (the label ${action === 'labeled' ? 'added' : 'removed'})`,
            payload: original,
            inputs: { label },
            start: action === 'labeled' ? 'yes' : 'no',
            quiet: action !== 'labeled'
          })
        return cases
      }
      const merged = clone(original)
      Object.assign(obj(merged.pull_request), {
        merged: true,
        merged_at: '2026-11-20T10:00:00Z',
        state: 'closed'
      })
      return [
        { ...base, name: `${name}, unmerged`, payload: original, start: 'no', quiet: true },
        { ...base, name: `${name}, merged`, payload: merged, start: 'yes', quiet: false },
        // A merge is judged by its author, not by who pressed the button.
        {
          ...base,
          name: `${name}, merged, a bot sender`,
          payload: withBot(merged),
          start: 'yes',
          quiet: false
        },
        {
          ...base,
          name: `${name}, merged, a read-only sender`,
          payload: merged,
          permission: 'read',
          start: 'yes',
          quiet: false
        }
      ]
    })
  )
}

/**
 * `push`: a tag, pushed or deleted, and a deleted branch have nothing to document and are skipped
 * before any request; a bot's push outside a pull request is refused.
 */
function pushCases(): Case[] {
  return published('push').flatMap((original, i): Case[] => {
    const deleted = original.deleted === true
    const tag = String(original.ref).startsWith('refs/tags/')
    const name = `push ${String(original.ref)}${deleted ? ' deleted' : original.created ? ' created' : ''} #${i}`
    const bot = withBot(original)
    bot.pusher = { name: BOT.login }
    const nothing = deleted || tag
    const base = { eventName: 'push', inputs: {}, permission: 'write' } as const
    return [
      {
        ...base,
        name: `${name}, as published`,
        payload: original,
        start: nothing ? 'no' : 'yes',
        quiet: nothing
      },
      { ...base, name: `${name}, a bot pusher`, payload: bot, start: 'no', quiet: nothing },
      // Pushing takes write access: a push is not gated by the sender's permission.
      {
        ...base,
        name: `${name}, a read-only pusher`,
        payload: original,
        permission: 'read',
        start: nothing ? 'no' : 'yes',
        quiet: nothing
      }
    ]
  })
}

/** Manual and scheduled runs: the prompt input is the request; nobody is gated. */
function manualCases(): Case[] {
  const dispatch = published('workflow_dispatch')
  const schedule = dispatch.map(p => {
    const { inputs: _inputs, ...rest } = clone(p)
    return { ...rest, schedule: '17 3 * * *' }
  })
  const inputs = { prompt: 'Fix broken links.' }
  return [
    ...dispatch.map((payload, i) => ({ eventName: 'workflow_dispatch', payload, i })),
    ...schedule.map((payload, i) => ({ eventName: 'schedule', payload, i }))
  ].flatMap(({ eventName, payload, i }): Case[] => [
    {
      name: `${eventName} #${i}`,
      eventName,
      payload,
      inputs,
      permission: 'write',
      start: 'yes',
      quiet: false
    },
    {
      name: `${eventName} #${i}, a bot sender`,
      eventName,
      payload: withBot(payload),
      inputs,
      permission: 'write',
      start: 'yes',
      quiet: false
    }
  ])
}

const CASES: Case[] = [
  ...issueCases(),
  ...commentCases(),
  ...pullCases(),
  ...pushCases(),
  ...manualCases()
]

const services = useAgentServices()
let validator: GitHubValidator
beforeAll(async () => {
  validator = await gitHubValidator()
}, 60_000)
// An hour of virtual time between cases: the simulator's 100 jobs an hour are for one workflow, not
// for hundreds of cases in a row.
beforeEach(() => services.clock.sleep(3_600_000))

/** What the fake GitHub needs to know for the change a payload describes. */
function prepareGitHub(c: Case, repository: string): void {
  const { gh } = services
  const sender = obj(c.payload.sender)
  if (typeof sender.login === 'string')
    gh.permissions.set(sender.login, { permission: c.permission, role_name: c.permission })
  const pull = obj(c.payload.pull_request)
  if (typeof pull.number === 'number')
    gh.addPull(repository, {
      number: pull.number,
      title: String(pull.title),
      state: pull.state === 'open' ? 'open' : 'closed',
      merged: pull.merged === true,
      files: [{ filename: 'src/retry.ts', additions: 12, deletions: 2 }]
    })
  // The pushed commit, as GitHub's history (GraphQL) and commit routes know it.
  const after = c.payload.after
  if (typeof after === 'string' && /^[0-9a-f]{40}$/.test(after) && !/^0+$/.test(after))
    gh.commits.set(after, {
      sha: after,
      message: String(obj(c.payload.head_commit).message ?? 'Change'),
      files: [{ filename: 'src/retry.ts' }]
    })
}

let runId = 9000
async function runCase(c: Case): Promise<RunResult> {
  const repository = String(obj(c.payload.repository).full_name ?? 'acme/docs')
  prepareGitHub(c, repository)
  // Merges and pushes are the changes sub-action's; issues, comments and prompts the main action's.
  const changes = ['pull_request', 'pull_request_target', 'push'].includes(c.eventName)
  return runInProcess({
    entry: changes ? 'dist/changes/index.js' : 'dist/index.js',
    clock: services.clock,
    inputs: services.inputs(TOKEN, c.inputs),
    event: c.payload,
    env: services.env({
      GITHUB_EVENT_NAME: c.eventName,
      GITHUB_REPOSITORY: repository,
      GITHUB_RUN_ID: String(++runId),
      GITHUB_RUN_ATTEMPT: '1'
    })
  })
}

describe("GitHub's published webhook examples, and variants, through the agent", () => {
  it('covers every published payload of the events the action runs on', () => {
    for (const name of ['issues', 'issue_comment', 'pull_request', 'push', 'workflow_dispatch'])
      expect(published(name).length, name).toBeGreaterThan(0)
    const payloads = new Set(CASES.map(c => c.payload))
    for (const name of ['issues', 'issue_comment', 'pull_request', 'push', 'workflow_dispatch'])
      for (const payload of published(name)) expect(payloads.has(payload)).toBe(true)
    expect(CASES.length).toBeGreaterThan(250)
  })

  it.each(CASES.map(c => [c.name, c]))('%s', async (_name, c) => {
    const { sim, gh } = services
    const result = await runCase(c)
    const shown = `${result.log}\n${result.summary}`
    expect(shown).not.toMatch(/Unexpected error|TypeError|ReferenceError|RangeError/)
    expect(shown).not.toMatch(/\n\s+at .+:\d+:\d+/)
    expect(result.code, result.log).toBe(0)
    const creates = sim.requests('create').length
    const messages = sim.requests('message').length
    if (c.start === 'yes') {
      expect(creates, result.log).toBe(1)
      expect(result.outputs.result).toBe('pr-opened')
    } else {
      expect(creates + messages, result.log).toBe(0)
      expect(result.outputs.result).toBe('skipped')
      expect(result.log).toMatch(/::notice title=Mintlify agent::Not starting the agent: /)
      expect(gh.comments).toHaveLength(0)
    }
    if (c.quiet) {
      expect(gh.requests, 'no request to GitHub').toEqual([])
      expect(sim.exchanges, 'no request to the service').toHaveLength(0)
    }
    const problems = gh.requests.flatMap(r =>
      validator.problems(r).map(p => `${r.method} ${r.path}: ${p}`)
    )
    expect(problems).toEqual([])
  })
})

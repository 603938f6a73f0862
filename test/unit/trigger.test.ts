import { describe, expect, it } from 'vitest'
import type { RunEvent } from '../../src/github/event.js'
import { MAX_COMMENT, outcomeBody, workingBody } from '../../src/agent/comment/comment-body.js'
import { type Marker, Markers } from '../../src/agent/comment/marker.js'
import { hasPermission } from '../../src/github/permission.js'
import { cleanUntrusted } from '../../src/runner/untrusted.js'
import { commandText } from '../../src/agent/command-text.js'
import { issueActivityRefusal, planTrigger } from '../../src/prompt/trigger.js'
import { type InputReader, type Masker } from '../../src/runner/inputs.js'
import { readInputs, withPolicy } from '../../src/agent/settings.js'
import { defaultPolicy } from '../../src/policy/policy.js'

/** A run's settings from its inputs alone: the inputs over the built-in policy (no policy file). */
const readSettings = (get: InputReader, env: NodeJS.ProcessEnv, mask: Masker) =>
  withPolicy(readInputs(get, env, mask), defaultPolicy())

const settings = (inputs: Record<string, string> = {}) =>
  readSettings(
    name =>
      ({ 'api-key': 'mint_k', 'project-id': 'p', 'github-token': 'ghs_t', ...inputs })[name] ?? '',
    {},
    () => {}
  )

const issue = {
  number: 3,
  title: 'T',
  body: 'B',
  url: 'https://github.com/o/r/issues/3',
  isPullRequest: false,
  labels: []
}
const event = (over: Partial<RunEvent> = {}): RunEvent => ({
  name: 'issues',
  action: 'labeled',
  label: 'docs-agent',
  owner: 'o',
  repo: 'r',
  apiUrl: 'https://api.github.com',
  actor: 'alice',
  actorIsBot: false,
  issue,
  runId: '1',
  step: 'docs/agent',
  runAttempt: 1,
  runUrl: 'https://github.com/o/r/actions/runs/1',
  serverUrl: 'https://github.com',
  ...over
})

describe('commandText', () => {
  it.each([
    ['/docs-agent add Python', 'add Python'],
    ['  /docs-agent\n\nmulti\nline', 'multi\nline'],
    ['/DOCS-AGENT yes', 'yes'],
    ['/docs-agent', '']
  ])('%j → %j', (body, text) => expect(commandText(body, '/docs-agent')).toBe(text))
  it.each(['/docs-agents please', 'please /docs-agent', ''])('%j is not a command', body =>
    expect(commandText(body, '/docs-agent')).toBeUndefined()
  )
})

describe('planTrigger', () => {
  it('builds the prompt from the issue on an issues event, and checks the actor', () => {
    const plan = planTrigger(settings(), event())
    expect(plan).toMatchObject({ target: 3, gate: true, fromComment: false })
    expect(plan.prompt).toContain('GitHub issue #3 of o/r')
  })

  it('puts an explicit prompt first, as the standing instruction, and keeps the issue as the request', () => {
    const prompt = planTrigger(settings({ prompt: 'Write in British English.' }), event()).prompt
    expect(prompt).toMatch(
      /^Standing instruction from the workflow of o\/r, for every request it sends:\nWrite in British English\.\n\nThe request follows\.\n\nUpdate the documentation as requested in GitHub issue #3 of o\/r/
    )
    expect(prompt).toMatch(
      /----- BEGIN ISSUE TEXT -----\nTitle: T\n\nB\n----- END ISSUE TEXT -----$/
    )
    const commented = planTrigger(
      settings({ prompt: 'Write in British English.' }),
      event({
        name: 'issue_comment',
        action: 'created',
        comment: { id: 1, body: '/docs-agent add Go' }
      })
    ).prompt
    expect(commented).toMatch(
      /^Standing instruction from the workflow of o\/r, for every request it sends:\nWrite in British English\.\n\nThe request follows\.\n\nInstruction from a maintainer of o\/r:\nadd Go\n\nContext: GitHub issue #3/
    )
    expect(commented).toMatch(/\nB\n----- END ISSUE TEXT -----$/)
  })

  it('needs an instruction somewhere', () => {
    expect(() =>
      planTrigger(settings(), event({ name: 'workflow_dispatch', issue: undefined }))
    ).toThrow(
      /Give the agent an instruction: set 'prompt' or 'prompt-file', run it from an issue, or set 'job-id'/
    )
  })

  it('skips edited comments and comments without the phrase', () => {
    const commented = (body: string, action = 'created') =>
      event({ name: 'issue_comment', action, comment: { id: 1, body } })
    expect(planTrigger(settings(), commented('/docs-agent x', 'edited')).skipped).toMatch(
      /was edited/
    )
    expect(planTrigger(settings(), commented('hello')).skipped).toBe(
      "The comment does not start with '/docs-agent'."
    )
    expect(planTrigger(settings(), commented('/docs-agent fix it'))).toMatchObject({
      fromComment: true,
      gate: true
    })
  })

  it('does not gate manual or scheduled runs', () => {
    expect(
      planTrigger(settings({ prompt: 'x' }), event({ name: 'schedule', issue: undefined })).gate
    ).toBe(false)
  })

  it('comments on issue-number, never with comment: false', () => {
    expect(
      planTrigger(
        settings({ prompt: 'x', 'issue-number': '9' }),
        event({ name: 'workflow_dispatch', issue: undefined })
      ).target
    ).toBe(9)
    expect(planTrigger(settings({ comment: 'false' }), event()).target).toBeUndefined()
  })

  it('needs a token to comment or to check permissions', () => {
    expect(() => planTrigger(settings({ 'github-token': '' }), event())).toThrow(
      /Input 'github-token' is empty/
    )
    expect(() => planTrigger(settings({ 'github-token': '', comment: 'false' }), event())).toThrow(
      /check the triggering person's permission/
    )
    expect(
      planTrigger(
        { ...settings({ 'github-token': '', comment: 'false' }), requiredPermission: 'none' },
        event()
      ).gate
    ).toBe(true)
  })
})

describe('issue activity: only a request starts the agent', () => {
  const labeledWith = (label?: string, action = 'labeled') => event({ action, label })
  const NOT_REQUESTS = [
    'unlabeled',
    'deleted',
    'transferred',
    'closed',
    'reopened',
    'assigned',
    'unassigned',
    'edited',
    'pinned',
    'unpinned',
    'locked',
    'unlocked',
    'milestoned',
    'demilestoned',
    'typed'
  ]

  it.each(NOT_REQUESTS)("skips '%s', naming it, with or without 'label'", action => {
    for (const label of ['', 'docs-agent', 'docs']) {
      const plan = planTrigger(settings({ label }), labeledWith('docs-agent', action))
      expect(plan.skipped).toMatch(new RegExp(`'${action}'`))
      expect(plan.skipped).toMatch(
        new RegExp(`only adding the label '${label || 'docs-agent'}' \\('labeled'\\) starts`)
      )
      expect(plan.prompt).toBeUndefined()
    }
  })

  it('says that removing the trigger label withdraws the request', () => {
    expect(
      planTrigger(settings({ label: 'docs-agent' }), labeledWith('docs-agent', 'unlabeled')).skipped
    ).toBe(
      "The label 'docs-agent' was removed from the issue ('unlabeled'): that is not a request; only adding the label 'docs-agent' ('labeled') starts the agent."
    )
  })

  it.each([undefined, '', 'LABELED', 'labeled\n::error::x', 'x'.repeat(100)])(
    'skips an issues event whose activity is %j, without echoing it',
    action => {
      const why = issueActivityRefusal(settings(), event({ action }))
      expect(why).toBe(
        "An issues event without a known activity is not a request; only adding the label 'docs-agent' ('labeled') starts the agent."
      )
    }
  )

  it("starts on labeled only for the trigger label (any case): 'docs-agent' unless 'label' names another", () => {
    // Before: an empty 'label' let any label start a paid job (adding 'bug' did).
    for (const unset of [settings(), settings({ label: '' }), settings({ label: '  ' })]) {
      expect(planTrigger(unset, labeledWith('bug')).skipped).toBe(
        "The label 'bug' was added to the issue; only adding 'docs-agent' ('label') starts the agent."
      )
      expect(planTrigger(unset, labeledWith(undefined)).skipped).toMatch(
        /does not name the label that was added; only adding 'docs-agent'/
      )
      expect(planTrigger(unset, labeledWith('Docs-Agent')).prompt).toContain('GitHub issue #3')
    }
    const docs = settings({ label: 'documentation' })
    expect(planTrigger(docs, labeledWith('documentation')).prompt).toContain('GitHub issue #3')
    expect(planTrigger(docs, labeledWith('Documentation')).skipped).toBeUndefined()
    expect(planTrigger(docs, labeledWith('docs-agent')).skipped).toBe(
      "The label 'docs-agent' was added to the issue; only adding 'documentation' ('label') starts the agent."
    )
  })

  it('starts on opened only when the new issue carries the trigger label', () => {
    const opened = (labels: string[]) => event({ action: 'opened', issue: { ...issue, labels } })
    for (const docs of [settings(), settings({ label: 'docs-agent' })]) {
      expect(planTrigger(docs, opened(['bug', 'docs-agent'])).skipped).toBeUndefined()
      expect(planTrigger(docs, opened(['bug', 'docs-agent'])).prompt).toContain('GitHub issue #3')
      expect(planTrigger(docs, opened(['bug'])).skipped).toBe(
        "The issue was opened without the label 'docs-agent' ('label'); adding it starts the agent."
      )
    }
  })

  it('decides before asking for a token or an instruction', () => {
    const bare = settings({ 'github-token': '', label: 'docs-agent' })
    expect(planTrigger(bare, labeledWith('bug')).skipped).toMatch(/'bug' was added/)
    expect(planTrigger(bare, event({ action: 'closed', issue: undefined })).skipped).toMatch(
      /'closed'/
    )
  })

  it('leaves other events to their own rules', () => {
    for (const name of ['issue_comment', 'workflow_dispatch', 'schedule'])
      expect(
        issueActivityRefusal(settings({ label: 'x' }), event({ name, action: 'closed' }))
      ).toBe(undefined)
  })
})

describe('issue text', () => {
  it('drops HTML comments, invisible and control characters, and caps the length', () => {
    expect(cleanUntrusted('a<!-- secret -->b\u200Bc\u0007d\u202Ee', 100)).toBe('abcde')
    expect(cleanUntrusted('unterminated <!-- rest', 100)).toBe('unterminated')
    expect(cleanUntrusted('x'.repeat(50), 10)).toBe(`${'x'.repeat(10)}\n[… cut at 10 characters]`)
  })
})

describe('marker', () => {
  const markers = new Markers('mint_k', 'o/r')
  const signed = (json: string) => {
    const body = markers.render({ job: 'job_1', run: '1', attempt: 1 }, 7)
    const sig = /sig=([0-9a-f]+)/.exec(body)?.[1]
    return `<!-- mintlify-agent sig=${sig} ${json} -->`
  }
  it('round-trips, signed for its issue, and refuses junk', () => {
    const marker = { job: 'job_1', run: '42', attempt: 2, project: 'proj_1' }
    expect(markers.read(`text\n${markers.render(marker, 7)}\nmore`, 7)).toEqual(marker)
    expect(markers.read('<!-- mintlify-agent {"run":"1"} -->', 7)).toBeUndefined()
    expect(markers.read('<!-- mintlify-agent {not json} -->', 7)).toBeUndefined()
    expect(markers.read(undefined, 7)).toBeUndefined()
  })

  it('is read only where it was signed, as it was signed, with the key it was signed with', () => {
    const body = markers.render({ job: 'job_1', run: '1', attempt: 1 }, 7)
    expect(markers.read(body, 7)).toMatchObject({ job: 'job_1' })
    // Copied to another issue, or to another repository.
    expect(markers.read(body, 8)).toBeUndefined()
    expect(new Markers('mint_k', 'o/other').read(body, 7)).toBeUndefined()
    // Another key (another organisation's, or someone's guess).
    expect(new Markers('mint_other', 'o/r').read(body, 7)).toBeUndefined()
    // Edited: another job under the same signature.
    expect(markers.read(body.replace('job_1', 'job_2'), 7)).toBeUndefined()
    // A valid signature over other JSON is no signature.
    expect(markers.read(signed('{"job":"job_evil","run":"1","attempt":1}'), 7)).toBeUndefined()
    // Unsigned, as written before markers were signed.
    expect(markers.read('<!-- mintlify-agent {"job":"job_1","run":"1","attempt":1} -->', 7)).toBe(
      undefined
    )
  })

  it('takes the newest marker that verifies when a body holds several', () => {
    const older = markers.render({ job: 'job_old', run: '1', attempt: 1 }, 7)
    const newer = markers.render({ job: 'job_new', run: '2', attempt: 1 }, 7)
    const forged = '<!-- mintlify-agent sig=' + '0'.repeat(40) + ' {"job":"job_x","run":"3"} -->'
    expect(markers.read(`${older}\n${newer}\n${forged}`, 7)?.job).toBe('job_new')
  })
})

describe('permissions', () => {
  it.each([
    ['write', 'write', 'write', true],
    ['read', 'triage', 'triage', true],
    ['read', 'triage', 'write', false],
    ['write', 'maintain', 'maintain', true],
    ['admin', 'admin', 'maintain', true],
    ['read', 'custom-role', 'write', false],
    ['write', 'custom-role', 'write', true],
    ['none', 'none', 'read', false]
  ] as const)('permission %s, role %s, needs %s → %s', (permission, role, required, ok) => {
    expect(hasPermission(permission, role, required)).toBe(ok)
  })
})

describe('comment bodies', () => {
  const ctx = {
    marker: { job: 'job_1', run: '7', attempt: 1 },
    runUrl: 'https://github.com/o/r/actions/runs/7',
    projectId: 'proj_1'
  }
  const markers = new Markers('mint_k', 'o/r')
  const sign = (marker: Marker) => markers.render(marker, 7)
  it('carry the marker, the job id and the run link', () => {
    const body = workingBody(ctx, { id: 'job_1' }, false, sign)
    expect(markers.read(body, 7)).toEqual(ctx.marker)
    expect(body).toContain('job `job_1` · [workflow run](https://github.com/o/r/actions/runs/7)')
  })
  it('stay far below the GitHub limit and never link anything but http(s)', () => {
    const body = outcomeBody(
      ctx,
      { id: 'x'.repeat(70_000), prLink: 'javascript:alert(1)' },
      'pr-opened',
      sign
    )
    expect(body.length).toBeLessThanOrEqual(MAX_COMMENT)
    expect(body).not.toContain('](javascript:')
  })
  it('say where to look when the job failed: its project on the Mintlify dashboard', () => {
    const body = outcomeBody(ctx, { id: 'job_1', status: 'failed' }, 'failed', sign)
    expect(body).toContain(
      '❌ **Mintlify agent** job failed. To see why, open job `job_1` among the agent jobs of project `proj_1` on the [Mintlify dashboard](https://dashboard.mintlify.com/).'
    )
  })
  it.each(['timed-out', 'cancelled', 'stopped'] as const)(
    'give the exact job-id to keep waiting with when the wait ended early (%s)',
    result => {
      const body = outcomeBody(ctx, { id: 'job_1', status: 'active' }, result, sign)
      expect(body).toContain(
        'may still finish on the service: re-run the workflow, or run the action with `job-id: job_1` to keep waiting.'
      )
    }
  )
})

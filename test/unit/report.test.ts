import { describe, expect, it } from 'vitest'
import { codeSpan, escapeMarkdown, markdownLink } from '../../src/runner/markdown.js'
import { outputsOf, renderSummary } from '../../src/agent/report.js'

const job = {
  id: 'job_1',
  status: 'completed',
  source: { repository: 'https://github.com/acme/docs', ref: 'main' },
  model: 'claude-x',
  prLink: 'https://github.com/acme/docs/pull/7',
  createdAt: '2026-11-21T12:00:00.000Z'
}
const now = new Date('2026-11-21T12:03:30.000Z')

describe('renderSummary', () => {
  it('shows the outcome, PR, job id, model, source, created and elapsed time', () => {
    const md = renderSummary({
      job,
      outcome: { kind: 'job', result: 'pr-opened' },
      elapsedMs: 1000,
      now
    })
    expect(md).toContain('## Mintlify agent: ✅ The agent opened a pull request')
    expect(md).toContain(
      '| Pull request | [https://github.com/acme/docs/pull/7](https://github.com/acme/docs/pull/7) |'
    )
    expect(md).toContain('| Job id | `job_1` |')
    expect(md).toContain('| Model | `claude-x` |')
    expect(md).toContain(
      '| Docs repository | [https://github.com/acme/docs](https://github.com/acme/docs) @ main |'
    )
    expect(md).toContain('| Created | 2026-11-21T12:00:00.000Z |')
    expect(md).toContain('| Elapsed | 3m 30s |')
  })

  it('says a timed-out job may still finish, with its id', () => {
    const md = renderSummary({
      job: { ...job, status: 'active', prLink: null },
      outcome: { kind: 'job', result: 'timed-out' },
      elapsedMs: 1,
      now
    })
    expect(md).toContain(
      'may still open a pull request. To wait for it, run the action again with `job-id: job_1`.'
    )
    expect(md).not.toContain('| Pull request |')
  })

  it('says where to look when the job failed', () => {
    const md = renderSummary({
      job: { ...job, status: 'failed', prLink: null },
      outcome: { kind: 'job', result: 'failed' },
      projectId: 'proj_1',
      elapsedMs: 1,
      now
    })
    expect(md).toContain(
      'To see why, open job `job_1` among the agent jobs of project `proj_1` on the [Mintlify dashboard](https://dashboard.mintlify.com/).'
    )
  })

  it('cannot be broken or turned into HTML by what the service returns', () => {
    const md = renderSummary({
      job: {
        ...job,
        model: 'a|b`c',
        source: { repository: '<img src=x onerror=alert(1)>', ref: '| evil |' },
        prLink: 'javascript:alert(1)'
      },
      outcome: { kind: 'job', result: 'pr-opened' },
      failure: 'line one\n## injected heading',
      elapsedMs: 1,
      now
    })
    expect(md).not.toMatch(/(?<!\\)<img/)
    expect(md).not.toContain('](javascript:')
    expect(md).not.toMatch(/^## injected/m)
    for (const row of md.split('\n').filter(l => l.startsWith('| ') && !l.startsWith('| |'))) {
      expect(row.replace(/\\\|/g, '').split('|')).toHaveLength(4)
    }
  })
})

describe('markdown helpers', () => {
  it('escapes Markdown and HTML', () =>
    expect(escapeMarkdown('*a* <b> [c](d)')).toBe('\\*a\\* \\<b\\> \\[c\\]\\(d\\)'))
  it('leaves no bare link, mention or issue reference in outside text', () => {
    const text = escapeMarkdown('see https://evil.example/x and WWW.evil.example, @org/team #12')
    expect(text).not.toMatch(/https:\/\/|www\.|@org|#12/i)
    expect(text.replace(/\u200B/g, '')).toContain('https://evil.example/x')
  })
  it('links only http(s)', () => {
    expect(markdownLink('x', 'https://e.com/a b')).toBe('[x](https://e.com/a%20b)')
    expect(markdownLink('x', 'data:text/html,hi')).toBe('data:text/html,hi')
  })
  it('fences code spans past any backticks', () => expect(codeSpan('a``b')).toBe('```a``b```'))
})

describe('outputsOf', () => {
  it('mirrors the job fields and is empty where nothing is known', () => {
    expect(
      outputsOf({ job, outcome: { kind: 'job', result: 'pr-opened' }, elapsedMs: 0, now })
    ).toEqual({
      jobId: 'job_1',
      status: 'completed',
      prLink: 'https://github.com/acme/docs/pull/7',
      model: 'claude-x',
      job: JSON.stringify(job),
      result: 'pr-opened',
      source: '',
      decision: '',
      prompt: ''
    })
    expect(
      outputsOf({
        outcome: { kind: 'dry-run', decision: 'new-job', prompt: 'Do it' },
        elapsedMs: 0,
        now
      })
    ).toMatchObject({ result: 'dry-run', decision: 'new-job', prompt: 'Do it' })
    expect(outputsOf({ outcome: { kind: 'failed', cancelled: false }, elapsedMs: 0, now })).toEqual(
      {
        jobId: '',
        status: '',
        prLink: '',
        model: '',
        job: '',
        result: '',
        source: '',
        decision: '',
        prompt: ''
      }
    )
    // A dry run says what it decided and what it would have sent.
    expect(
      outputsOf({
        outcome: { kind: 'dry-run', decision: 'follow-up', prompt: 'Docs.' },
        elapsedMs: 0,
        now
      })
    ).toMatchObject({ result: 'dry-run', decision: 'follow-up', prompt: 'Docs.', jobId: '' })
  })
})

import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { InputError } from '../../src/runner/errors.js'
import { type InputReader, type Masker, sendableSecret } from '../../src/runner/inputs.js'
import { readInputs, withPolicy } from '../../src/agent/settings.js'
import { defaultPolicy } from '../../src/policy/policy.js'
import { temporaryFolder } from '../support/temporary.js'

/** A run's settings from its inputs alone: the inputs over the built-in policy (no policy file). */
const readSettings = (get: InputReader, env: NodeJS.ProcessEnv, mask: Masker) =>
  withPolicy(readInputs(get, env, mask), defaultPolicy())

const workspace = temporaryFolder('inputs-')
writeFileSync(path.join(workspace, 'prompt.md'), '  Update the changelog page.\n')
writeFileSync(path.join(workspace, 'empty.md'), '   \n')
// What a checked-out pull request can hold: links out of the workspace.
const outside = temporaryFolder('outside-')
writeFileSync(path.join(outside, 'secret.txt'), 'GITHUB_TOKEN=ghs_x')
symlinkSync('/proc/self/environ', path.join(workspace, 'environ.md'))
symlinkSync(path.join(outside, 'secret.txt'), path.join(workspace, 'linked.md'))
symlinkSync(outside, path.join(workspace, 'linked-dir'))
mkdirSync(path.join(workspace, 'docs'))
writeFileSync(path.join(workspace, 'docs', 'big.md'), 'x'.repeat(256 * 1024 + 1))

const KEY = 'mint_secret_value'
function settings(inputs: Record<string, string | undefined>, masked: string[] = []) {
  return readSettings(
    name => inputs[name] ?? '',
    { GITHUB_WORKSPACE: workspace },
    s => masked.push(s)
  )
}
const base = { 'api-key': KEY, 'project-id': 'proj_1', prompt: 'Do it' }

describe('readSettings', () => {
  it('applies the action.yml defaults when inputs are empty', () => {
    const s = settings(base)
    expect(s).toMatchObject({
      apiKey: KEY,
      projectId: 'proj_1',
      prompt: 'Do it',
      wait: true,
      timeoutMs: 30 * 60_000,
      pollIntervalMs: 10_000
    })
    expect(s.apiUrl.href).toBe('https://api.mintlify.com/')
    expect([...s.failOn]).toEqual(['failed', 'timeout'])
  })

  it('reads the issue inputs, with their defaults', () => {
    expect(settings(base)).toMatchObject({
      comment: 'auto',
      triggerPhrase: '/docs-agent',
      requiredPermission: 'write'
    })
    const s = settings({
      ...base,
      'issue-number': '12',
      comment: 'true'
    })
    expect(s).toMatchObject({ issueNumber: 12, comment: 'true' })
    // Who may trigger is the policy file's (test/unit/policy.test.ts): none by default.
    expect([...s.allowedBots]).toEqual([])
  })

  it('masks the GitHub token too', () => {
    const masked: string[] = []
    settings({ ...base, 'github-token': 'ghs_abc' }, masked)
    expect(masked).toEqual([KEY, 'ghs_abc'])
  })

  it('masks the key before validating anything else', () => {
    const masked: string[] = []
    expect(() => settings({ 'api-key': KEY, 'project-id': '..' }, masked)).toThrow(InputError)
    expect(masked).toEqual([KEY])
  })

  it('reads the prompt from a file relative to the workspace', () => {
    expect(settings({ ...base, prompt: '', 'prompt-file': 'prompt.md' }).prompt).toBe(
      'Update the changelog page.'
    )
  })

  it('accepts a job id without a prompt (just wait), and with one (follow-up)', () => {
    expect(settings({ ...base, prompt: '', 'job-id': 'job_9' })).toMatchObject({
      jobId: 'job_9',
      prompt: undefined
    })
    expect(settings({ ...base, 'job-id': 'job_9' })).toMatchObject({
      jobId: 'job_9',
      prompt: 'Do it'
    })
  })

  it('reads fail-on words and none', () => {
    expect([...settings({ ...base, 'fail-on': ' failed , no-pr,archived' }).failOn]).toEqual([
      'failed',
      'no-pr',
      'archived'
    ])
    expect(settings({ ...base, 'fail-on': 'none' }).failOn.size).toBe(0)
  })

  it('allows http only on loopback', () => {
    for (const url of ['http://localhost:4010', 'http://127.0.0.5:80/', 'http://[::1]:9']) {
      expect(settings({ ...base, 'api-url': url }).apiUrl.protocol).toBe('http:')
    }
    expect(
      settings({ ...base, 'api-url': 'https://proxy.example.com/mintlify/' }).apiUrl.pathname
    ).toBe('/mintlify')
  })

  it.each([
    [{ 'api-key': '' }, /Input 'api-key' is required/],
    [{ 'api-key': 'mint_a b' }, /'api-key' holds a character that cannot be sent.*U\+0020/],
    [{ 'project-id': '' }, /Input 'project-id' is required/],
    [{ 'project-id': 'a\tb' }, /Input 'project-id' must be an ID.*got "a\\tb"/],
    [{ 'project-id': '..' }, /Input 'project-id' must be an ID/],
    [{ 'project-id': 'p'.repeat(201) }, /Input 'project-id' must be an ID/],
    [{ 'job-id': '.' }, /Input 'job-id' must be an ID/],
    [{ 'job-id': 'job\u001b[31m' }, /Input 'job-id' must be an ID/],
    [{ prompt: '   ' }, /Input 'prompt' is blank/],
    [{ 'prompt-file': 'prompt.md' }, /Set only one of 'prompt' and 'prompt-file'/],
    [
      { prompt: '', 'prompt-file': 'missing.md' },
      /Input 'prompt-file': no file at 'missing.md'.*actions\/checkout/
    ],
    [{ prompt: '', 'prompt-file': 'empty.md' }, /'empty.md' is empty/],
    [{ prompt: '', 'prompt-file': '.' }, /must name a regular file/],
    [{ prompt: '', 'prompt-file': 'environ.md' }, /'environ.md' leads outside it/],
    [{ prompt: '', 'prompt-file': 'linked.md' }, /'linked.md' leads outside it/],
    [{ prompt: '', 'prompt-file': 'linked-dir/secret.txt' }, /leads outside it/],
    [{ prompt: '', 'prompt-file': '../outside/x.md' }, /no file|leads outside it/],
    [{ prompt: '', 'prompt-file': '/proc/self/environ' }, /leads outside it/],
    [{ prompt: '', 'prompt-file': '/etc/hostname' }, /leads outside it/],
    [{ prompt: '', 'prompt-file': 'docs/big.md' }, /larger than 262144 bytes/],
    [{ 'api-key': 'mint_a\u200bb' }, /'api-key' holds a character that cannot be sent.*U\+200B/],
    [{ 'api-key': 'mint_\u201cab\u201d' }, /'api-key' holds a character that cannot be sent/],
    [{ 'github-token': 'ghs_a\nb' }, /'github-token' holds a character that cannot be sent/],
    // Only a whole expression is one: half of one is a broken secret.
    [
      { 'github-token': '${{ github.token' },
      /'github-token' holds a character that cannot be sent/
    ],
    [{ timeout: '30 minutes' }, /Input 'timeout' must be a duration/],
    [{ timeout: '0s' }, /Input 'timeout' must be between/],
    [
      { timeout: '45' },
      /Input 'timeout' needs a unit: write '45m' for 45 minutes or '45s' for 45 seconds/
    ],
    [{ 'poll-interval': '10' }, /Input 'poll-interval' needs a unit: write '10m'.* or '10s'/],
    [{ 'poll-interval': '100ms' }, /Input 'poll-interval' must be between 1s/],
    [{ 'poll-interval': 'often' }, /Input 'poll-interval' must be a duration/],
    [{ wait: 'yes' }, /Input 'wait' must be 'true' or 'false'; got 'yes'/],
    [{ 'fail-on': 'failed,error' }, /'fail-on' accepts .*'error' is not one of them/],
    [{ 'fail-on': 'none,failed' }, /'none' is not one of them/],
    [{ 'api-url': 'http://api.mintlify.com' }, /Input 'api-url' must use https:\/\//],
    [{ 'api-url': 'http://10.0.0.1' }, /must use https:\/\//],
    [{ 'api-url': 'ftp://x' }, /must use https:\/\//],
    [{ 'api-url': 'not a url' }, /Input 'api-url' must be an absolute URL/],
    [{ 'api-url': 'https://user:pw@api.mintlify.com' }, /must not contain credentials/],
    [{ 'api-url': 'https://api.mintlify.com/?x=1' }, /must not have a query/],
    [{ comment: 'yes' }, /Input 'comment' must be one of auto, true, false; got 'yes'/],
    [{ 'issue-number': '#12' }, /Input 'issue-number' must be a whole number/],
    [{ 'issue-number': '0' }, /Input 'issue-number' must be a whole number from 1/],
    [{ 'trigger-phrase': '/docs agent' }, /Input 'trigger-phrase' must be one word/]
  ])('refuses %j', (override, message) => {
    expect(() => settings({ ...base, ...override })).toThrow(message)
  })

  it('keeps an unexpanded ${{ }} expression as it is, unmasked, for every secret input', () => {
    const masked: string[] = []
    const read = settings(
      {
        ...base,
        'api-key': '${{ secrets.MINTLIFY_API_KEY }}',
        'github-token': ' ${{ github.token }} ',
        'docs-token': '${{secrets.DOCS}}'
      },
      masked
    )
    expect(read).toMatchObject({
      apiKey: '${{ secrets.MINTLIFY_API_KEY }}',
      githubToken: '${{ github.token }}',
      docsToken: '${{secrets.DOCS}}'
    })
    expect(masked).toEqual([])
    // Where the secret is needed, and only there, it is refused, naming the input.
    expect(() => sendableSecret('github-token', read.githubToken)).toThrow(
      /^Input 'github-token' is the text of a \$\{\{ … \}\} expression, not its value: .*INPUT_GITHUB-TOKEN=…/
    )
    expect(sendableSecret('api-key', KEY)).toBe(KEY)
  })

  it('never puts the key in an error message', () => {
    const key = 'mint_do_not_print'
    for (const override of [
      { 'project-id': '/' },
      { timeout: 'x' },
      { 'api-url': 'http://x.example' }
    ]) {
      try {
        settings({ ...base, 'api-key': key, ...override })
        expect.unreachable()
      } catch (error) {
        expect(String(error)).not.toContain(key)
      }
    }
  })
})

import { describe, expect, it } from 'vitest'
import {
  DEFAULT_PROMPT,
  USAGE,
  UsageError,
  liveConnection,
  parseStartArgs
} from '../../scripts/start-options.js'

// What `npm start` runs is decided by its arguments; the end-to-end runs are in test/bundle/start.test.ts.
describe('npm start: the arguments', () => {
  it('shows the issue story on the simulator by default, whatever else is asked', () => {
    expect(parseStartArgs([])).toEqual({ mode: 'issue', live: false, prompt: '', help: false })
  })

  it('reads --help and -h as a request for the usage, not as a prompt', () => {
    expect(parseStartArgs(['--help']).help).toBe(true)
    expect(parseStartArgs(['-h']).help).toBe(true)
    expect(parseStartArgs(['--prompt', 'x', '--help']).help).toBe(true)
    expect(USAGE).toMatch(/--live/)
    expect(USAGE).toMatch(/--prompt/)
  })

  it('runs a prompt-only run with --prompt, in either spelling', () => {
    expect(parseStartArgs(['--prompt', 'Document the CLI'])).toMatchObject({
      mode: 'prompt',
      prompt: 'Document the CLI',
      live: false
    })
    expect(parseStartArgs(['--prompt=Document it']).prompt).toBe('Document it')
    expect(parseStartArgs(['--prompt', ' ']).prompt).toBe(DEFAULT_PROMPT)
  })

  it('goes live only with --live', () => {
    expect(parseStartArgs(['--gaps']).live).toBe(false)
    expect(parseStartArgs(['--live', '--gaps'])).toMatchObject({ mode: 'gaps', live: true })
  })

  it.each([
    [['--prompt'], /--prompt needs the prompt's text/],
    [['--prompt', '--live'], /--prompt needs the prompt's text/],
    [['--verbose'], /Unknown option '--verbose'/],
    [['Document', 'it'], /'Document' is not an option: a prompt goes after --prompt/],
    [['--gaps', '--prompt', 'x'], /not both/]
  ])('refuses %j, saying why', (args, why) => {
    expect(() => parseStartArgs(args)).toThrow(UsageError)
    expect(() => parseStartArgs(args)).toThrow(why)
  })

  it('takes the live key and project from the environment, naming what is missing', () => {
    expect(liveConnection({ MINTLIFY_API_KEY: 'mint_k', MINTLIFY_PROJECT_ID: 'p ' })).toEqual({
      apiKey: 'mint_k',
      projectId: 'p',
      apiUrl: 'https://api.mintlify.com'
    })
    expect(
      liveConnection({
        MINTLIFY_API_KEY: 'mint_k',
        MINTLIFY_PROJECT_ID: 'p',
        MINTLIFY_API_URL: 'http://127.0.0.1:1'
      }).apiUrl
    ).toBe('http://127.0.0.1:1')
    expect(() => liveConnection({ MINTLIFY_API_KEY: 'mint_k' })).toThrow(
      /--live needs MINTLIFY_PROJECT_ID in the environment/
    )
    expect(() => liveConnection({})).toThrow(
      /--live needs MINTLIFY_API_KEY and MINTLIFY_PROJECT_ID/
    )
  })
})

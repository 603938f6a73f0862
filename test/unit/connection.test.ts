import { afterEach, describe, expect, it, vi } from 'vitest'
import { InputError } from '../../src/runner/errors.js'
import { silentLogger } from '../../src/runner/logger.js'
import { systemClock } from '../../src/runner/clock.js'
import { openClient } from '../../src/mintlify/connection.js'

const connection = {
  apiKey: 'mint_k',
  projectId: 'p',
  apiUrl: new URL('https://api.mintlify.com')
}

afterEach(() => vi.unstubAllEnvs())

describe('openClient', () => {
  it('rejects a runner proxy variable that is not a URL, naming it but not echoing it', () => {
    vi.stubEnv('HTTPS_PROXY', 'http://user:pw@[bad')
    const open = () =>
      openClient(connection, {
        log: silentLogger,
        signal: new AbortController().signal,
        clock: systemClock
      })
    expect(open).toThrow(InputError)
    expect(open).toThrow(/HTTPS_PROXY/)
    expect(open).not.toThrow(/pw/)
  })

  it('warns about a key without the admin prefix, and opens the client all the same', async () => {
    const warnings: string[] = []
    const client = openClient(
      { ...connection, apiKey: 'key_without_prefix' },
      {
        log: { ...silentLogger, warning: (m: string) => void warnings.push(m) },
        signal: new AbortController().signal,
        clock: systemClock
      }
    )
    expect(warnings).toEqual([expect.stringContaining('does not start with mint_')])
    await client.close()
  })
})

import type { buildConnector } from 'undici'
import { describe, expect, it } from 'vitest'
import { isLoopbackAddress, loopbackOnlyForHttp } from '../../src/mintlify/loopback.js'
import { isLoopbackHost, parseApiUrl } from '../../src/mintlify/connection.js'

describe('plain http only to this machine', () => {
  it('takes localhost and literal loopback addresses, not names under .localhost', () => {
    for (const url of [
      'http://localhost:4010',
      'http://127.0.0.1',
      'http://127.9.9.9:1',
      'http://[::1]:80'
    ])
      expect(parseApiUrl('api-url', url).protocol).toBe('http:')
    for (const url of [
      'http://anything.localhost',
      'http://localhost.example.com',
      'http://10.0.0.1',
      'http://[::2]'
    ])
      expect(() => parseApiUrl('api-url', url)).toThrow(/must use https:\/\//)
    expect(isLoopbackHost('127.1')).toBe(false)
  })

  it.each([
    ['127.0.0.1', true],
    ['127.200.0.9', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['10.0.0.1', false],
    ['::ffff:10.0.0.1', false],
    ['192.168.1.1', false],
    ['', false]
  ])('counts %s as loopback: %s', (address, loopback) => {
    expect(isLoopbackAddress(address)).toBe(loopback)
  })

  /** What undici's connector hands back: a socket connected to `remoteAddress`. */
  function connectTo(protocol: string, remoteAddress: string) {
    const results: { error: Error | null; socket: unknown }[] = []
    let destroyed = false
    const socket = { remoteAddress, destroy: () => (destroyed = true) }
    const callback = ((error: Error | null, s: unknown) =>
      results.push({ error, socket: s })) as buildConnector.Callback
    const checked = loopbackOnlyForHttp(
      { protocol, hostname: 'localhost', port: '4010' } as buildConnector.Options,
      callback
    )
    ;(checked as (e: Error | null, s: unknown) => void)(null, socket)
    return { result: results[0], destroyed, socket }
  }

  it('refuses a plain-http connection that landed on another machine, before the request', () => {
    const { result, destroyed } = connectTo('http:', '10.1.2.3')
    expect(destroyed).toBe(true)
    expect(result?.socket).toBeNull()
    expect(result?.error).toMatchObject({ code: 'NOT_LOOPBACK', sent: 'no' })
    expect(result?.error?.message).toMatch(/localhost is 10\.1\.2\.3; use https:\/\//)
  })

  it('passes loopback http connections and every https connection', () => {
    for (const [protocol, address] of [
      ['http:', '127.0.0.1'],
      ['http:', '::1'],
      ['https:', '10.1.2.3']
    ]) {
      const { result, destroyed, socket } = connectTo(protocol as string, address as string)
      expect(destroyed).toBe(false)
      expect(result).toEqual({ error: null, socket })
    }
  })
})

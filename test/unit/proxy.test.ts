import { describe, expect, it } from 'vitest'
import { proxyAuthorization, proxyFor } from '../../src/mintlify/proxy.js'

const url = (s: string) => new URL(s)
const via = (target: string, env: NodeJS.ProcessEnv) => proxyFor(url(target), env)?.href

describe('proxyFor', () => {
  it('uses the https variable for https targets and the http one for http targets', () => {
    const env = { HTTPS_PROXY: 'http://secure:3128', HTTP_PROXY: 'http://plain:3128' }
    expect(via('https://api.mintlify.com/v2', env)).toBe('http://secure:3128/')
    expect(via('http://docs.example.com/', env)).toBe('http://plain:3128/')
    expect(via('https://api.mintlify.com/', { HTTP_PROXY: 'http://plain:3128' })).toBeUndefined()
  })

  it('prefers the lower-case variables, as the toolkit does', () => {
    expect(
      via('https://a.com/', { https_proxy: 'http://lower:1', HTTPS_PROXY: 'http://upper:2' })
    ).toBe('http://lower:1/')
  })

  it('reads a proxy given without a scheme as http', () => {
    expect(via('https://a.com/', { HTTPS_PROXY: 'proxy.corp:8080' })).toBe(
      'http://proxy.corp:8080/'
    )
  })

  it('never proxies loopback', () => {
    const env = { HTTPS_PROXY: 'http://p:1', HTTP_PROXY: 'http://p:1' }
    for (const target of [
      'http://localhost:4010/',
      'http://127.0.0.1:4010/',
      'https://[::1]:8443/'
    ])
      expect(via(target, env)).toBeUndefined()
  })

  it('honours NO_PROXY: *, hosts, subdomains, host:port', () => {
    const env = (noProxy: string) => ({ HTTPS_PROXY: 'http://p:1', NO_PROXY: noProxy })
    expect(via('https://api.mintlify.com/', env('*'))).toBeUndefined()
    expect(via('https://api.mintlify.com/', env('example.com, mintlify.com'))).toBeUndefined()
    expect(via('https://api.mintlify.com/', env('.mintlify.com'))).toBeUndefined()
    expect(via('https://api.mintlify.com/', env('api.mintlify.com:443'))).toBeUndefined()
    expect(via('https://api.mintlify.com/', env('api.mintlify.com:8443'))).toBe('http://p:1/')
    expect(via('https://notmintlify.com/', env('mintlify.com'))).toBe('http://p:1/')
    expect(
      via('https://api.mintlify.com/', { ...env('x'), no_proxy: 'MINTLIFY.COM' })
    ).toBeUndefined()
  })

  it('says what to fix when the variable is not a URL', () => {
    expect(() => via('https://a.com/', { HTTPS_PROXY: 'http://[bad' })).toThrow(
      "The runner's HTTPS_PROXY is not a URL: set it to http://host:port (or http://user:password@host:port)."
    )
  })
})

describe('proxyAuthorization', () => {
  it('sends decoded credentials from the URL as Basic, and nothing without them', () => {
    expect(proxyAuthorization(url('http://build:s3cr%25t@p:1'))).toEqual({
      'proxy-authorization': `Basic ${Buffer.from('build:s3cr%t').toString('base64')}`
    })
    expect(proxyAuthorization(url('http://p:1'))).toEqual({})
  })
})

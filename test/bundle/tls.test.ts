// The runner's contract over https: NODE_EXTRA_CA_CERTS is read when a process starts, and the
// runner's proxy variables reach the bundle through its environment. The failures (an untrusted
// certificate, a proxy asking for credentials, NO_PROXY) run in-process in
// test/flows/https-and-proxy.test.ts.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { SIM_API_KEY, SIM_PROJECT, Simulator } from '../simulator/server.js'
import { testCertificate } from '../support/certificate.js'
import { LoopbackProxy } from '../support/proxy.js'
import { runAction } from '../support/run-action.js'

let sim: Simulator
let certFile: string
beforeAll(async () => {
  // Trusted by the action only through NODE_EXTRA_CA_CERTS.
  const certificate = testCertificate()
  certFile = certificate.certFile
  sim = await Simulator.start({
    job: { durationMs: 300 },
    tls: { key: certificate.key, cert: certificate.cert }
  })
})
afterAll(() => sim.close())

const inputs = () => ({
  'api-key': SIM_API_KEY,
  'project-id': SIM_PROJECT,
  'api-url': sim.url,
  prompt: 'Over TLS',
  'poll-interval': '1s'
})

describe('the bundled agent action over https', () => {
  it('runs a job end to end against an https service', async () => {
    expect(sim.url).toMatch(/^https:/)
    const result = await runAction({ inputs: inputs(), env: { NODE_EXTRA_CA_CERTS: certFile } })
    expect(result.code).toBe(0)
    expect(result.outputs.result).toBe('pr-opened')
  })

  describe('behind a proxy (HTTPS_PROXY)', () => {
    let proxy: LoopbackProxy
    // Not a loopback name, which is never proxied; the proxy maps it back to the simulator.
    const proxiedUrl = () => sim.url.replace('127.0.0.1', 'mintlify.proxied.test')
    afterEach(() => proxy.close())

    // One run for both: the proxy lets no request through without the credentials.
    it('tunnels every request through the proxy, TLS end to end, with the credentials of the proxy URL, never shown', async () => {
      proxy = await LoopbackProxy.start({ credentials: 'build:s3cr%t' })
      sim.reset()
      const result = await runAction({
        inputs: { ...inputs(), 'api-url': proxiedUrl() },
        env: {
          NODE_EXTRA_CA_CERTS: certFile,
          HTTPS_PROXY: proxy.url.replace('//', '//build:s3cr%25t@')
        }
      })
      expect(result.code).toBe(0)
      expect(result.outputs.result).toBe('pr-opened')
      expect(proxy.targets.length).toBeGreaterThanOrEqual(1)
      expect(new Set(proxy.targets)).toEqual(new Set([new URL(proxiedUrl()).host]))
      expect(sim.exchanges.length).toBeGreaterThanOrEqual(2)
      expect(result.log).not.toContain('s3cr')
    })
  })
})

// The agent action's failures over https and behind a proxy, in-process. What only a new process
// shows (NODE_EXTRA_CA_CERTS, the runner's proxy variables reaching the bundle) stays in
// test/bundle/tls.test.ts. In-process the service client reads the proxy variables from
// process.env, as it reads the runner's environment in production: they are stubbed here.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { SIM_API_KEY, SIM_PROJECT, Simulator } from '../simulator/server.js'
import { testCertificate } from '../support/certificate.js'
import { LoopbackProxy } from '../support/proxy.js'
import { runInProcess } from '../support/run-in-process.js'
import { VirtualClock } from '../support/virtual-clock.js'

const clock = new VirtualClock()
let sim: Simulator
beforeAll(async () => {
  // This process does not trust the certificate: NODE_EXTRA_CA_CERTS is read when a process starts.
  const { key, cert } = testCertificate()
  sim = await Simulator.start({ job: { durationMs: 300 }, tls: { key, cert }, now: clock.wallNow })
})
afterAll(() => sim.close())
beforeEach(() => {
  sim.reset()
})

/** The runner's proxy variables, exactly these: both spellings, so a developer's own do not count. */
function proxyVariables(vars: { HTTPS_PROXY?: string; NO_PROXY?: string }): void {
  for (const name of ['HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY']) {
    const value = vars[name as keyof typeof vars]
    vi.stubEnv(name, value)
    vi.stubEnv(name.toLowerCase(), value)
  }
}
afterEach(() => {
  vi.unstubAllEnvs()
})

const inputs = (extra: Record<string, string> = {}) => ({
  'api-key': SIM_API_KEY,
  'project-id': SIM_PROJECT,
  'api-url': sim.url,
  prompt: 'Over TLS',
  'poll-interval': '1s',
  ...extra
})

describe('a service name that does not resolve, run in-process from source', () => {
  // .invalid names never resolve (RFC 6761). A resolver that answers says so (ENOTFOUND), and the
  // step stops at once; one that cannot answer at all (EAI_AGAIN, a machine offline) is waited out.
  it.each([
    [
      'a new job',
      { prompt: 'Document it' },
      /Could not create the agent job: .*The request never reached the service, so nothing was done\./
    ],
    ['waiting for a job', { 'job-id': 'job_1' }, /Could not read the status of job job_1: /]
  ])(
    '%s with a mistyped api-url: fails at once, naming the name and what to check',
    async (_, given, what) => {
      proxyVariables({})
      const result = await runInProcess({
        inputs: {
          'api-key': SIM_API_KEY,
          'project-id': SIM_PROJECT,
          'api-url': 'https://api.mintlify.invalid',
          timeout: '30m',
          ...given
        },
        clock
      })
      expect(result.code).toBe(1)
      if (/EAI_AGAIN/.test(result.log)) return
      expect(result.log).toMatch(what)
      expect(result.log).toMatch(
        /::error::.*cannot reach api\.mintlify\.invalid: the name api\.mintlify\.invalid does not resolve \(ENOTFOUND\)\..* Check 'api-url' \(https:\/\/api\.mintlify\.invalid\/\)/
      )
      // Neither retries nor a wait for the job until the 30-minute limit.
      expect(result.waitedMs).toBe(0)
    }
  )
})

describe('the agent action over https, run in-process from source', () => {
  it('fails at once, with what to do, on a certificate it does not trust', async () => {
    proxyVariables({})
    expect(sim.url).toMatch(/^https:/)
    const result = await runInProcess({ inputs: inputs({ timeout: '10m' }), clock })
    expect(result.code).toBe(1)
    expect(result.log).toMatch(
      /::error::The TLS certificate of 127.0.0.1:\d+ is not trusted \(\w+\)\. Check 'api-url'; for a private certificate authority, set NODE_EXTRA_CA_CERTS/
    )
    // Waiting out retries until the 10-minute limit would show here.
    expect(result.waitedMs).toBe(0)
    expect(sim.exchanges).toHaveLength(0)
  })

  describe('behind a proxy (HTTPS_PROXY)', () => {
    let proxy: LoopbackProxy
    // Not a loopback name, which is never proxied; the proxy maps it back to the simulator.
    const proxiedUrl = () => sim.url.replace('127.0.0.1', 'mintlify.proxied.test')
    afterEach(() => proxy.close())

    it('fails at once, saying what to do, when the proxy wants credentials it did not get', async () => {
      proxy = await LoopbackProxy.start({ credentials: 'build:secret' })
      proxyVariables({ HTTPS_PROXY: proxy.url })
      const result = await runInProcess({
        inputs: inputs({ 'api-url': proxiedUrl(), timeout: '10m' }),
        clock
      })
      expect(result.code).toBe(1)
      expect(result.log).toMatch(
        /::error::.*the proxy 127\.0\.0\.1:\d+ asks for credentials \(407\): put them in the proxy variable as http:\/\/user:password@127\.0\.0\.1:\d+/
      )
      expect(result.waitedMs).toBe(0)
      expect(sim.exchanges).toHaveLength(0)
    })

    it('goes direct for hosts in NO_PROXY', async () => {
      proxy = await LoopbackProxy.start()
      proxyVariables({ HTTPS_PROXY: proxy.url, NO_PROXY: 'example.com, .proxied.test' })
      // Direct, the test name resolves nowhere: the run can only fail, and the proxy sees nothing.
      const result = await runInProcess({
        inputs: inputs({ 'api-url': proxiedUrl(), timeout: '3s' }),
        clock
      })
      expect(result.code).toBe(1)
      // A resolver that answers says the name does not exist, and the run stops at once; one that
      // cannot answer (EAI_AGAIN, a machine offline) is waited out until 'timeout'.
      expect(result.log).toMatch(
        /cannot reach mintlify\.proxied\.test:\d+: (the name mintlify\.proxied\.test does not resolve \(ENOTFOUND\)|EAI_AGAIN)/
      )
      if (/ENOTFOUND/.test(result.log)) expect(result.waitedMs).toBe(0)
      expect(proxy.targets).toHaveLength(0)
    })
  })
})

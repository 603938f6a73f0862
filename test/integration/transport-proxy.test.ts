import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Transport } from '../../src/mintlify/transport.js'
import { SIM_API_KEY, SIM_PROJECT, Simulator } from '../simulator/server.js'
import { LoopbackProxy } from '../support/proxy.js'

// Plain http through a proxy (https tunnels are covered end to end in test/e2e/tls.test.ts).
let sim: Simulator
beforeAll(async () => {
  sim = await Simulator.start()
})
afterAll(() => sim.close())

const get = (transport: Transport) =>
  transport.send({
    method: 'GET',
    // Not a loopback name, which is never proxied; the proxy maps it back to the simulator.
    url: new URL(
      `${sim.url.replace('127.0.0.1', 'mintlify.proxied.test')}/v2/agent/${SIM_PROJECT}/job/job_missing`
    ),
    headers: { authorization: `Bearer ${SIM_API_KEY}` },
    signal: AbortSignal.timeout(5000),
    maxResponseBytes: 1 << 20
  })

describe('Transport, http through HTTP_PROXY', () => {
  it('sends the request to the proxy with its absolute URL and the credentials', async () => {
    const proxy = await LoopbackProxy.start({ credentials: 'build:s3cr%t' })
    const transport = new Transport({ HTTP_PROXY: proxy.url.replace('//', '//build:s3cr%25t@') })
    try {
      const res = await get(transport)
      expect(res.status).toBe(404)
      expect(JSON.parse(res.text)).toEqual({ error: expect.any(String) })
      expect(proxy.targets).toEqual([
        new URL(sim.url).host.replace('127.0.0.1', 'mintlify.proxied.test')
      ])
    } finally {
      transport.close()
      await proxy.close()
    }
  })

  it("gets the proxy's 407 when the credentials are missing", async () => {
    const proxy = await LoopbackProxy.start({ credentials: 'build:secret' })
    const transport = new Transport({ HTTP_PROXY: proxy.url })
    try {
      expect((await get(transport)).status).toBe(407)
      expect(proxy.targets).toEqual([])
    } finally {
      transport.close()
      await proxy.close()
    }
  })
})

// Run by test/integration/http.test.ts in a process of its own: leaves one idle keep-alive
// connection (argv[2], an http URL) and one request stuck on a proxy that never answers CONNECT
// (argv[3]), closes the session once the parent says the proxy holds that connection (a line on
// standard input), and prints what happened. The process must then end by itself.
import { once } from 'node:events'
import { HttpSession } from '../../src/mintlify/http.js'

const [, , serverUrl, silentProxy] = process.argv
// What holds the process before the session does anything: standard output, once written to.
console.log('started')
const baseline = process.getActiveResourcesInfo()
// The runner's proxy variables, as the session reads them.
for (const name of ['https_proxy', 'NO_PROXY', 'no_proxy']) delete process.env[name]
process.env.HTTPS_PROXY = silentProxy
const session = new HttpSession({ maxResponseBytes: 1024 })
const request = (url: string, signal: AbortSignal) => ({
  method: 'GET' as const,
  url: new URL(url),
  headers: {},
  signal
})

const first = await session.send(request(`${serverUrl}/`, AbortSignal.timeout(60_000)))
// A signal that never aborts: only close() can end this request. Were it left pending with nothing
// else holding the process, Node would end it with code 13 (an unsettled top-level await).
const never = new AbortController().signal
const stuck = session.send(request('https://mintlify.proxied.test/v1/stuck', never)).then(
  () => 'resolved',
  (error: { code?: string; sent?: string }) => `${error.code} ${error.sent}`
)
console.log('waiting')
await once(process.stdin, 'data')
process.stdin.destroy()
await session.close()
const outcome = await stuck
// One turn of the loop, so that handles closed by close() are gone: what is left holds the process.
await new Promise(resolve => setTimeout(resolve, 0))
const holding = process.getActiveResourcesInfo()
console.log(JSON.stringify({ status: first.status, stuck: outcome, baseline, holding }))

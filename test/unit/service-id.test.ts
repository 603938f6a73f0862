import { describe, expect, it } from 'vitest'
import { Markers } from '../../src/agent/comment/marker.js'
import { ApiClient } from '../../src/mintlify/client.js'
import { SERVICE_ID, parseId } from '../../src/mintlify/connection.js'
import { InputError } from '../../src/runner/errors.js'

// The one id rule (src/mintlify/connection.ts): inputs, the service's answers and the comment
// marker all use it. Ids are opaque strings in the published documents.
const ALLOWED = [
  'job_1_83d03057',
  'laborum est dolore',
  'a/b?c#d%2e..',
  '...',
  'tâche-été',
  '01KAKGK0000000000000000000',
  'x'.repeat(200),
  '😀'.repeat(200)
]
const REFUSED = [
  '',
  '.',
  '..',
  'x'.repeat(201),
  'a\u0000b',
  'a\nb',
  'a\u0085b',
  'a\u2028b',
  'a\u202Eb',
  'a\u2066b',
  '\uD800'
]

describe('the id rule', () => {
  it.each(ALLOWED)('takes %j', id => {
    expect(SERVICE_ID.test(id)).toBe(true)
    expect(parseId('job-id', ` ${id} `)).toBe(id)
  })

  it.each(REFUSED)('refuses %j, quoting it escaped', id => {
    expect(SERVICE_ID.test(id)).toBe(false)
    expect(() => parseId('job-id', id)).toThrow(InputError)
    if (id.trim() && id.length < 60)
      expect(() => parseId('job-id', id)).toThrow(JSON.stringify(id).slice(1, -1))
  })

  it('puts each id in its own path segment, percent-encoded', () => {
    const client = new ApiClient({ baseUrl: new URL('https://api.example/base'), apiKey: 'mint_k' })
    const url = client.url({ path: ['v2', 'agent', 'p 1', 'job', 'a/b?c#d%2e..'] })
    expect(url.pathname).toBe('/base/v2/agent/p%201/job/a%2Fb%3Fc%23d%252e..')
    expect(url.search + url.hash).toBe('')
    expect(() => client.url({ path: ['v2', 'agent', 'p', 'job', '..'] })).toThrow(/segment '\.\.'/)
  })

  it('reads markers back with any id the rule allows, and drops ids it refuses', () => {
    const markers = new Markers('mint_k', 'o/r')
    for (const id of ALLOWED) {
      const marker = { job: id, run: '1', attempt: 1, kind: 'change' as const, project: id }
      expect(markers.read(`x ${markers.render(marker, 3)} y`, 3)).toEqual(marker)
    }
    for (const id of REFUSED)
      expect(markers.read(markers.render({ job: id, run: '1', attempt: 1 }, 3), 3)).toBeUndefined()
  })
})

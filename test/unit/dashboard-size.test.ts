import { describe, expect, it } from 'vitest'
import { withinIssueBody } from '../../src/agent/ledger/dashboard.js'

describe('the dashboard body within GitHub’s 65,536 characters', () => {
  const record = `<!-- state ${'s'.repeat(20_000)} -->`

  it('leaves a body within the limit as it is', () => {
    const page = '## Dashboard\n\n- one line'
    expect(withinIssueBody(page, record)).toBe(`${page}\n${record}`)
  })

  it('cuts a page too long at a line’s end, says so, and keeps the state whole', () => {
    const page = Array.from({ length: 2_000 }, (_, i) => `| row ${i} | ${'x'.repeat(40)} |`).join(
      '\n'
    )
    const body = withinIssueBody(page, record)
    expect(body.length).toBeLessThanOrEqual(65_536)
    expect(body.endsWith(`\n${record}`)).toBe(true)
    expect(body).toContain('The rest of this page is cut')
    const kept = body.slice(0, body.indexOf('\n\n… The rest'))
    expect(page.startsWith(kept)).toBe(true)
    expect(kept.endsWith('|')).toBe(true)
  })
})
